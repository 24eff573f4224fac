// A todo server as a host would write one with the official MCP
// TypeScript SDK: `McpServer` with a `TodoWrite` tool that keeps each
// session's list in memory, on Express through the SDK's own Express and
// Node adapters, one server and transport per session as the SDK's
// examples do. `make bench` measures its CPU per call beside todokit's.
//
// Usage: node server.mjs PORT (prints "listening" once it accepts).

import { randomUUID } from 'node:crypto';

import { createMcpExpressApp } from '@modelcontextprotocol/express';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

/** Each session's list. */
const lists = new Map();
/** Each session's transport. */
const transports = new Map();

const todo = z.object({
  content: z.string().min(1),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z.string().min(1),
});

/** A server for one session, writing to `lists` under `session()`. */
function serverFor(session) {
  const server = new McpServer({ name: 'sdk-todo', version: '1.0.0' });
  server.registerTool(
    'TodoWrite',
    { description: 'Replace the session\'s todo list.', inputSchema: { todos: z.array(todo) } },
    async ({ todos }) => {
      lists.set(session(), todos);
      return { content: [{ type: 'text', text: 'Todos have been modified successfully.' }], isError: false };
    },
  );
  return server;
}

const app = createMcpExpressApp();
app.post('/mcp', async (req, res) => {
  const id = req.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? transports.get(id) : undefined;
  if (transport === undefined) {
    let opened = '';
    transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (session) => {
        opened = session;
        transports.set(session, transport);
      },
    });
    await serverFor(() => opened).connect(transport);
  }
  await transport.handleRequest(req, res, req.body);
});
app.listen(Number(process.argv[2]), '127.0.0.1', () => console.log('listening'));
