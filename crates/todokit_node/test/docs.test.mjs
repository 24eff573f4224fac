// @ts-check
/** docs/bindings.md's TypeScript blocks, type-checked and run: the
 * LangChain.js agent, the Claude Agent SDK options and the host loop. */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { AIMessage, HumanMessage, fakeModel } from 'langchain';
import { Todokit } from 'todokit';

import { cliJson, folder, moduleOf } from './support.mjs';

/** The `js` blocks of the docs' TypeScript sections, in order. */
function blocks() {
  const readme = process.env.TODOKIT_README;
  if (!readme) throw new Error('TODOKIT_README must name the README (node-package.sh sets it)');
  const text = readFileSync(join(dirname(readme), 'docs', 'bindings.md'), 'utf8');
  const sections = ['## TypeScript framework adapters', '## A TypeScript host loop'].map(
    (heading) => text.split(heading)[1]?.split('\n## ')[0] ?? '',
  );
  const found = sections.flatMap((section) => [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1] ?? ''));
  assert.equal(found.length, 3);
  return found;
}

/**
 * @param {string} name
 * @param {number} index
 */
async function load(name, index) {
  return import(pathToFileURL(moduleOf(name, blocks()[index] ?? '')).href);
}

test('the LangChain.js agent of the docs runs on the default store', async () => {
  const store = folder();
  process.env['TODOKIT_STORE'] = store;
  const { buildAgent } = await load('docs-langchain.mjs', 0);
  const plan = { todos: [{ content: 'Rename the module', status: 'completed' }] };
  const model = fakeModel().respondWithTools([{ name: 'write_todos', args: plan, id: 'w' }]).respond(new AIMessage('Done.'));
  // The kit is made here, on the store the variable names.
  const agent = buildAgent(model);
  delete process.env['TODOKIT_STORE'];
  const result = await agent.invoke({ messages: [new HumanMessage('Rename it')] }, { configurable: { thread_id: 'rename-config' } });
  assert.deepEqual(result.todos, plan.todos);
  assert.equal(cliJson(store, ['show', '--format', 'json'], { profile: 'deepagents-js', conversation: 'rename-config' }).version, 1);
});

test('the Claude Agent SDK options of the docs serve the profile', async () => {
  const { agentOptions } = await load('docs-claude.mjs', 1);
  const kit = new Todokit({ profile: 'claude-code', memory: true });
  const options = agentOptions(kit, 'c');
  assert.deepEqual(options.allowedTools, ['mcp__todo__TodoWrite']);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await options.mcpServers.todo.instance.connect(serverSide);
  const client = new Client({ name: 'docs', version: '1.0.0' });
  await client.connect(clientSide);
  const answer = await client.callTool({ name: 'TodoWrite', arguments: { todos: [] } });
  assert.equal(answer.isError, false);
  assert.equal(typeof options.hooks.Stop[0].hooks[0], 'function');
  await client.close();
  kit.close();
});

test('the host loop of the docs runs a strict turn to its end', async () => {
  const { runTurn } = await load('docs-loop.mjs', 2);
  const kit = new Todokit({ profile: 'claude-code', memory: true });
  const policy = kit.turnPolicy('c', { endOfTurn: 'strict' });
  const item = (/** @type {string} */ status) =>
    JSON.stringify({ todos: [{ content: 'Run the tests', status, activeForm: 'Running the tests' }] });
  const replies = [
    { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'TodoWrite', arguments: item('in_progress') } }] },
    { role: 'assistant', content: 'Started.' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'b', type: 'function', function: { name: 'TodoWrite', arguments: item('completed') } }] },
    { role: 'assistant', content: 'Done.' },
  ];
  /** @type {any[][]} */
  const requests = [];
  const model = async (/** @type {any[]} */ request) => {
    requests.push(request);
    return replies[requests.length - 1];
  };
  /** @type {any[]} */
  const messages = [{ role: 'user', content: 'Run the tests' }];
  const end = await runTurn(kit, policy, 'c', messages, model);
  assert.equal(end.action, 'end');
  assert.equal(requests.length, 4);
  // The strict reminder went back to the model before its third reply.
  assert.match(requests[2]?.at(-1)?.content ?? '', /Run the tests/);
  assert.equal((await kit.state('c')).version, 2);
  kit.close();
});
