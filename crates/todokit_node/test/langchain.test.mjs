// @ts-check
/**
 * `todokit/langchain` through LangChain.js's own `createAgent` (langchain
 * 1.5.14, @langchain/core 1.4.0, from this folder's package-lock.json),
 * the model being LangChain's scripted `fakeModel()`.
 *
 * The golden test runs the same scripted turns through LangChain.js's own
 * `todoListMiddleware` and through `todokitMiddleware` with the
 * `deepagents-js` profile: the tool messages are equal, content, status,
 * call id and name.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { AIMessage, HumanMessage, ToolMessage, createAgent, fakeModel, todoListMiddleware } from 'langchain';
import { Todokit, TodokitError } from 'todokit';
import { todokitMiddleware } from 'todokit/langchain';

import { cliJson, folder } from './support.mjs';

/** @typedef {{ name: string, args: Record<string, any>, id: string }} Call */

const PLAN = { todos: [{ content: 'Read the code', status: 'in_progress' }, { content: 'Fix the bug', status: 'pending' }] };
const PROGRESS = { todos: [{ content: 'Read the code', status: 'completed' }, { content: 'Fix the bug', status: 'in_progress' }] };
const EXTRA = { todos: [{ content: 'Fix the bug', status: 'completed', activeForm: 'Fixing "it"' }] };
const DONE = { todos: [{ content: 'Read the code', status: 'completed' }, { content: 'Fix the bug', status: 'completed' }] };

/**
 * A `write_todos` call.
 * @param {unknown} args
 * @param {string} id
 * @returns {Call}
 */
const write = (args, id) => ({ name: 'write_todos', args: /** @type {Record<string, any>} */ (args), id });

/** The scripted turns: a plan, progress, a key the schema lacks, an
 * empty list, two calls in one turn (last: after refusing them
 * `todoListMiddleware`'s run ends, see docs/leniency.md), then the answer. */
function script() {
  return fakeModel()
    .respondWithTools([write(PLAN, 't1')])
    .respondWithTools([write(PROGRESS, 't2')])
    .respondWithTools([write(EXTRA, 't3')])
    .respondWithTools([write({ todos: [] }, 't4')])
    .respondWithTools([write(PLAN, 't5a'), write(DONE, 't5b')])
    .respond(new AIMessage('Fixed.'));
}

/**
 * The tool messages of a run, as the model reads them.
 * @param {any[]} messages
 */
function toolMessages(messages) {
  return messages
    .filter((m) => ToolMessage.isInstance(m))
    .map((m) => ({ content: String(m.content), status: m.status ?? 'success', id: m.tool_call_id, name: m.name }));
}

test('deepagents-js through createAgent answers as todoListMiddleware, message for message', async () => {
  const config = { configurable: { thread_id: 'golden' } };
  const theirs = await createAgent({ model: script(), middleware: [todoListMiddleware()] }).invoke(
    { messages: [new HumanMessage('Fix the bug')] },
    config,
  );
  const kit = new Todokit({ profile: 'deepagents-js', memory: true });
  const ours = await createAgent({ model: script(), middleware: [todokitMiddleware(kit)] }).invoke(
    { messages: [new HumanMessage('Fix the bug')] },
    config,
  );
  const expected = toolMessages(theirs.messages);
  assert.equal(expected.length, 6);
  assert.deepEqual(toolMessages(ours.messages), expected);
  assert.deepEqual(ours.todos, theirs.todos);
  // Theirs stops at its refusals; ours goes back to the model with them.
  assert.ok(ToolMessage.isInstance(theirs.messages.at(-1)));
  assert.equal(ours.messages.at(-1)?.content, 'Fixed.');
  kit.close();
});

test('the system prompt is appended to the system message as todoListMiddleware appends its own', async () => {
  const kit = new Todokit({ profile: 'deepagents-js', memory: true });
  const model = fakeModel().respond(new AIMessage('Hello.'));
  await createAgent({ model, systemPrompt: 'You are terse.', middleware: [todokitMiddleware(kit, { conversation: 'c' })] }).invoke({
    messages: [new HumanMessage('Hi')],
  });
  const [system] = model.calls[0]?.messages ?? [];
  assert.equal(system?.text, `You are terse.\n\n${kit.profile.systemPrompt}`);
  kit.close();
});

test('strict: a model that stops with work open goes back with the reminder, which the graph never keeps', async () => {
  const store = folder();
  const kit = new Todokit({ profile: 'deepagents-js', storeDir: store });
  const model = fakeModel()
    .respondWithTools([write(PLAN, 'p')])
    .respond(new AIMessage('Reading; the fix comes next.'))
    .respondWithTools([write(DONE, 'd')])
    .respond(new AIMessage('Fixed.'));
  const agent = createAgent({ model, middleware: [todokitMiddleware(kit, { endOfTurn: 'strict' })] });
  const result = await agent.invoke({ messages: [new HumanMessage('Fix the bug')] }, { configurable: { thread_id: 'strict' } });
  assert.equal(model.callCount, 4);
  const sentBack = model.calls[2]?.messages ?? [];
  const reminder = sentBack.at(-1);
  assert.ok(reminder && HumanMessage.isInstance(reminder), 'the third request ends with the reminder');
  assert.match(reminder.text, /Fix the bug/);
  assert.ok(!result.messages.some((/** @type {any} */ m) => m.text === reminder.text), 'the graph keeps no reminder');
  assert.equal(result.todokitWarning, null);
  assert.deepEqual(result.todos, DONE.todos);
  // The command sees what the agent wrote.
  assert.equal(cliJson(store, ['show', '--format', 'json'], { profile: 'deepagents-js', conversation: 'strict' }).version, 2);
  kit.close();
});

test('soft: the warning is left in todokitWarning and the run ends', async () => {
  const kit = new Todokit({ profile: 'deepagents-js', memory: true });
  const model = fakeModel().respondWithTools([write(PLAN, 'p')]).respond(new AIMessage('Reading.'));
  const result = await createAgent({ model, middleware: [todokitMiddleware(kit)] }).invoke(
    { messages: [new HumanMessage('Fix the bug')] },
    { configurable: { thread_id: 'soft' } },
  );
  assert.equal(model.callCount, 2);
  assert.match(result.todokitWarning ?? '', /Fix the bug/);
  kit.close();
});

test('without a thread_id or a conversation the middleware says what it needs', async () => {
  const kit = new Todokit({ profile: 'deepagents-js', memory: true });
  const agent = createAgent({ model: fakeModel().respond(new AIMessage('Hi.')), middleware: [todokitMiddleware(kit)] });
  await assert.rejects(agent.invoke({ messages: [new HumanMessage('Hi')] }), (error) => {
    assert.ok(error instanceof TodokitError);
    assert.equal(error.code, 'USAGE');
    assert.match(error.message, /thread_id/);
    return true;
  });
  assert.throws(() => todokitMiddleware(kit, { endOfTurn: /** @type {any} */ ('sometimes') }), TodokitError);
  kit.close();
});

test('any profile plugs in: claude-code\'s TodoWrite through createAgent, state mirrored', async () => {
  const kit = new Todokit({ profile: 'claude-code', memory: true });
  const reference = new Todokit({ profile: 'claude-code', memory: true });
  const args = { todos: [{ content: 'Run the tests', status: 'in_progress', activeForm: 'Running the tests' }] };
  const model = fakeModel().respondWithTools([{ name: 'TodoWrite', args, id: 'w' }]).respond(new AIMessage('Running.'));
  const result = await createAgent({ model, middleware: [todokitMiddleware(kit, { endOfTurn: 'off' })] }).invoke(
    { messages: [new HumanMessage('Run the tests')] },
    { configurable: { thread_id: 'c' } },
  );
  const expected = await reference.call('c', 'TodoWrite', args);
  assert.deepEqual(toolMessages(result.messages), [{ content: expected.content, status: 'success', id: 'w', name: 'TodoWrite' }]);
  assert.deepEqual(result.todos, [{ content: 'Run the tests', status: 'in_progress' }]);
  kit.close();
  reference.close();
});
