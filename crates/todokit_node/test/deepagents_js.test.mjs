// @ts-check
/**
 * Golden test of the `deepagents-js` profile against LangChain.js's own
 * `todoListMiddleware` (the npm package langchain 1.5.14, the profile's
 * pin, installed from this folder's package-lock.json): the same payloads
 * through its `write_todos` tool and through todokit give the same answer,
 * byte for byte, and a model turn with two calls gets the same refusals.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { AIMessage } from '@langchain/core/messages';
import { todoListMiddleware } from 'langchain';
import { Todokit } from 'todokit';

/** The scripted payloads: a plan, progress, keys the schema lacks, quotes,
 * backslashes, control characters and non-ASCII text, an empty list. */
const PAYLOADS = [
  { todos: [{ content: 'Read the code', status: 'in_progress' }, { content: 'Fix the bug', status: 'pending' }] },
  { todos: [{ content: 'Read the code', status: 'completed' }, { content: 'Fix the bug', status: 'in_progress' }] },
  { todos: [{ content: 'Fix the bug', status: 'completed', activeForm: 'Fixing' }, { status: 'pending', content: 'Say "done"' }] },
  { todos: [{ content: 'Back\\slash, tab\t, newline\n, bell\u0007', status: 'pending' }, { content: 'Ünïcødé ✓ 漢字 🚀', status: 'in_progress' }] },
  { todos: [] },
];

/**
 * The text of what LangChain.js's tool answers `args` with.
 * @param {any} tool
 * @param {unknown} args
 * @param {string} id
 * @returns {Promise<string>}
 */
async function theirs(tool, args, id) {
  const command = await tool.invoke({ name: 'write_todos', args, id, type: 'tool_call' });
  const message = command.update.messages[0];
  return String(message.content);
}

test('deepagents-js answers as LangChain.js\'s todoListMiddleware, byte for byte', async () => {
  const middleware = todoListMiddleware();
  const tool = middleware.tools?.[0];
  assert.ok(tool);
  const kit = new Todokit({ profile: 'deepagents-js', memory: true });
  for (const [i, args] of PAYLOADS.entries()) {
    const expected = await theirs(tool, args, `call-${i}`);
    const actual = await kit.call('golden', 'write_todos', args);
    assert.equal(actual.isError, false, actual.content);
    assert.equal(actual.content, expected);
  }
  kit.close();
});

test('two write_todos in one model turn: the same refusal for each, nothing stored', async () => {
  const middleware = todoListMiddleware();
  const calls = [
    { name: 'write_todos', args: PAYLOADS[0], id: 'a', type: /** @type {const} */ ('tool_call') },
    { name: 'write_todos', args: PAYLOADS[1], id: 'b', type: /** @type {const} */ ('tool_call') },
  ];
  const afterModel = /** @type {(state: unknown, runtime: unknown) => Promise<any>} */ (middleware.afterModel);
  const refused = await afterModel({ messages: [new AIMessage({ content: '', tool_calls: calls })] }, {});
  const expected = refused.messages.map((/** @type {any} */ m) => [m.status === 'error', String(m.content)]);
  const kit = new Todokit({ profile: 'deepagents-js', memory: true });
  const results = await kit.callRound('c', calls.map((call) => ({ tool: call.name, arguments: call.args })));
  assert.deepEqual(results.map((r) => [r.isError, r.content]), expected);
  assert.equal((await kit.state('c')).version, 0);
  kit.close();
});
