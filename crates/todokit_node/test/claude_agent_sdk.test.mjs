// @ts-check
/**
 * `todokit/claude-agent-sdk`: the in-process MCP server driven by the
 * official MCP TypeScript SDK's client over its in-memory transport
 * (@modelcontextprotocol/sdk 1.32.2, the range the Claude Agent SDK
 * 0.3.332 asks for), and the hooks as the Agent SDK calls them. The Agent
 * SDK's own types check that both fit its `Options` (running it needs the
 * Claude Code binary and a key, which tests do not have).
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Todokit, profiles } from 'todokit';
import { todokitHooks, todokitMcpServer } from 'todokit/claude-agent-sdk';

import { ONE } from './support.mjs';

/**
 * A client connected to `server`'s instance.
 * @param {ReturnType<typeof todokitMcpServer>} server
 */
async function connect(server) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.instance.connect(serverSide);
  const client = new Client({ name: 'todokit-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

const SIGNAL = { signal: new AbortController().signal };

test('the server fits the Agent SDK\'s options, as a host writes them', () => {
  const kit = new Todokit({ profile: 'claude-code', memory: true });
  const policy = kit.turnPolicy('c', { endOfTurn: 'strict' });
  /** @type {import('@anthropic-ai/claude-agent-sdk').Options} */
  const options = {
    mcpServers: { todo: todokitMcpServer(kit, 'c', { name: 'todo' }) },
    disallowedTools: ['TodoWrite'],
    allowedTools: ['mcp__todo__TodoWrite'],
    hooks: todokitHooks(policy),
  };
  const server = options.mcpServers?.['todo'];
  assert.equal(server?.type, 'sdk');
  assert.equal(server && 'name' in server ? server.name : '', 'todo');
  kit.close();
});

test('every profile\'s tools: listed exactly as `schema --target mcp`, each example answered as the kit answers it', async () => {
  for (const name of profiles()) {
    const kit = new Todokit({ profile: name, memory: true });
    const reference = new Todokit({ profile: name, memory: true });
    const client = await connect(todokitMcpServer(kit, 'c'));
    assert.equal(client.getInstructions(), kit.profile.systemPrompt, name);
    const listed = await client.listTools();
    assert.deepEqual(listed.tools, kit.definitions('mcp'), name);
    const example = kit.profile.example;
    if (example !== null) {
      const answered = await client.callTool({ name: example.tool, arguments: JSON.parse(example.arguments) });
      const expected = await reference.call('c', example.tool, example.arguments);
      assert.deepEqual(answered.content, [{ type: 'text', text: expected.content }], name);
      assert.equal(answered.isError, expected.isError, name);
      assert.equal(answered.structuredContent, undefined, name);
    }
    await client.close();
    kit.close();
    reference.close();
  }
});

test('the details come as structured content only when the host asks', async () => {
  const kit = new Todokit({ profile: 'claude-code', memory: true });
  const reference = new Todokit({ profile: 'claude-code', memory: true });
  const client = await connect(todokitMcpServer(kit, 'c', { structuredContent: true }));
  const args = { todos: [{ content: 'Plan it', status: 'in_progress', activeForm: 'Planning it' }] };
  const answered = await client.callTool({ name: 'TodoWrite', arguments: args });
  const expected = await reference.call('c', 'TodoWrite', args);
  assert.deepEqual(answered.content, [{ type: 'text', text: expected.content }]);
  assert.deepEqual(answered.structuredContent, expected.details);
  await client.close();
  kit.close();
  reference.close();
});

test('a refusal is a result with isError; a tool the profile lacks and an unknown mode are invalid params', async () => {
  const kit = new Todokit({ profile: 'claude-code', memory: true });
  const client = await connect(todokitMcpServer(kit, 'c'));
  const refused = await client.callTool({ name: 'TodoWrite', arguments: { todos: 'nope' } });
  assert.equal(refused.isError, true);
  await assert.rejects(client.callTool({ name: 'update_plan', arguments: {} }), (error) => {
    assert.ok(error instanceof McpError);
    assert.equal(error.code, -32602);
    return true;
  });
  await assert.rejects(
    client.callTool({ name: 'TodoWrite', arguments: ONE, _meta: { 'todokit/mode': 'yolo' } }),
    (error) => error instanceof McpError && error.code === -32602 && /todokit\/mode/.test(error.message),
  );
  assert.equal((await kit.state('c')).version, 0);
  const stored = await client.callTool({ name: 'TodoWrite', arguments: ONE });
  assert.equal(stored.isError, false);
  assert.equal((await kit.state('c')).version, 1);
  await client.close();
  kit.close();
});

test('plan mode in a call\'s _meta: Codex refuses as it does in its Plan mode', async () => {
  const kit = new Todokit({ profile: 'codex', memory: true });
  const reference = new Todokit({ profile: 'codex', memory: true });
  const client = await connect(todokitMcpServer(kit, 'c'));
  const example = kit.profile.example;
  assert.ok(example);
  const answered = await client.callTool({
    name: example.tool,
    arguments: JSON.parse(example.arguments),
    _meta: { 'todokit/mode': 'plan' },
  });
  const expected = await reference.call('c', example.tool, example.arguments, { mode: 'plan' });
  assert.equal(answered.isError, true);
  assert.deepEqual(answered.content, [{ type: 'text', text: expected.content }]);
  await client.close();
  kit.close();
  reference.close();
});

test('Stop hook: strict blocks the stop with the reminder, soft shows a warning, a finished list lets it stop', async () => {
  const kit = new Todokit({ profile: 'claude-code', memory: true });
  await kit.call('strict', 'TodoWrite', ONE);
  await kit.call('soft', 'TodoWrite', ONE);
  const stop = { hook_event_name: 'Stop', session_id: 's', transcript_path: '/dev/null', cwd: '/', stop_hook_active: false };
  const strict = todokitHooks(kit.turnPolicy('strict', { endOfTurn: 'strict' }));
  const blocked = await strict.Stop[0]?.hooks[0]?.(stop, undefined, SIGNAL);
  assert.equal(blocked?.decision, 'block');
  assert.match(blocked?.reason ?? '', /Run the tests/);
  const soft = todokitHooks(kit.turnPolicy('soft', { endOfTurn: 'soft' }));
  const warned = await soft.Stop[0]?.hooks[0]?.(stop, undefined, SIGNAL);
  assert.equal(warned?.decision, undefined);
  assert.match(warned?.systemMessage ?? '', /Run the tests/);
  const idle = todokitHooks(kit.turnPolicy('empty', { endOfTurn: 'strict' }));
  assert.deepEqual(await idle.Stop[0]?.hooks[0]?.(stop, undefined, SIGNAL), {});
  kit.close();
});

test('UserPromptSubmit hook: the user\'s hand edit reaches the model as additional context, once', async () => {
  const kit = new Todokit({ profile: 'claude-code', memory: true });
  await kit.call('c', 'TodoWrite', ONE);
  await kit.edit('c', { action: 'append', items: ['Update the changelog'] });
  const hooks = todokitHooks(kit.turnPolicy('c'));
  const prompt = { hook_event_name: 'UserPromptSubmit', session_id: 's', transcript_path: '/dev/null', cwd: '/', prompt: 'go on' };
  const first = await hooks.UserPromptSubmit[0]?.hooks[0]?.(prompt, undefined, SIGNAL);
  assert.equal(first?.hookSpecificOutput?.hookEventName, 'UserPromptSubmit');
  assert.match(first?.hookSpecificOutput?.additionalContext ?? '', /Update the changelog/);
  assert.deepEqual(await hooks.UserPromptSubmit[0]?.hooks[0]?.(prompt, undefined, SIGNAL), {});
  kit.close();
});
