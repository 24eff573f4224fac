// @ts-check
/** Calls, bad input, errors, one store with the command, concurrency. */

import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { Todokit, TodokitError } from 'todokit';

import { ONE, camelCased, cli, cliJson, folder } from './support.mjs';

/** @param {Todokit} kit @param {string} conversation */
async function tasks(kit, conversation) {
  const state = await kit.state(conversation);
  return state.phases.flatMap((phase) => phase.tasks.map((task) => [task.content, task.status]));
}

test('a wrong payload is a result with isError, and nothing is stored', async () => {
  const kit = new Todokit({ memory: true });
  const bad = ['{"todos": 5}', '{not json', Buffer.from([0xff, 0xfe]), { todos: [{ content: '' }] }, [], '['.repeat(100_000), 42, null];
  for (const payload of bad) {
    const result = await kit.call('c', 'TodoWrite', payload);
    assert.equal(result.isError, true, String(payload).slice(0, 40));
    assert.equal(kit.callSync('c', 'TodoWrite', payload).isError, true);
  }
  assert.equal((await kit.state('c')).version, 0);
});

test('values JSON cannot write are TypeErrors, before anything runs', async () => {
  const kit = new Todokit({ memory: true });
  /** @type {any[]} */
  const circular = [];
  circular.push(circular);
  for (const payload of [{ x: 1n }, circular, undefined, () => 1, Symbol('s')]) {
    await assert.rejects(kit.call('c', 'TodoWrite', payload), TypeError);
    assert.throws(() => kit.callSync('c', 'TodoWrite', payload), TypeError);
  }
  assert.equal((await kit.state('c')).version, 0);
});

test('a five-megabyte text is refused and the list kept', async () => {
  const kit = new Todokit({ memory: true });
  await kit.call('c', 'TodoWrite', ONE);
  const huge = { todos: [{ content: 'x'.repeat(5_000_000), status: 'pending', activeForm: 'x' }] };
  const result = await kit.call('c', 'TodoWrite', huge);
  assert.equal(result.isError, true);
  assert.ok(result.content.length < 2000);
  assert.deepEqual(await tasks(kit, 'c'), [['Run the tests', 'in_progress']]);
});

test('a round with two write_todos is refused in deepagents\' words, storing nothing', async () => {
  const kit = new Todokit({ profile: 'deepagents', memory: true });
  const todos = { todos: [{ content: 'a', status: 'pending' }] };
  const results = await kit.callRound('c', [{ tool: 'write_todos', arguments: todos }, { tool: 'write_todos', arguments: todos }]);
  assert.deepEqual(results.map((r) => r.isError), [true, true]);
  assert.match(results[0]?.content ?? '', /should never be called multiple times in parallel/);
  assert.equal((await kit.state('c')).version, 0);
});

test('a store failure mid-round gives the position and the answers before it', async () => {
  const store = folder();
  const kit = new Todokit({ storeDir: store });
  await kit.call('c', 'TodoWrite', ONE);
  const stored = readdirSync(store).filter((name) => name.endsWith('.json'));
  assert.equal(stored.length, 1);
  writeFileSync(join(store, stored[0] ?? ''), '{ this is not a list');
  // The unreadable call is answered in its place; the next one meets the
  // broken file.
  const calls = [Buffer.from([0xff, 0xfe]), ONE, ONE].map((args) => ({ tool: 'TodoWrite', arguments: args }));
  const failed = await kit.callRound('c', calls).then(
    () => undefined,
    (error) => error,
  );
  assert.ok(failed instanceof TodokitError, String(failed));
  assert.equal(failed.code, 'STORE');
  assert.equal(failed.index, 1);
  assert.deepEqual(failed.answered.map((r) => [r.isError, r.content.includes('UTF-8')]), [[true, true]]);
  assert.doesNotMatch(failed.message, /todokit:round/);
  const alone = await kit.call('c', 'TodoWrite', ONE).then(
    () => undefined,
    (error) => error,
  );
  assert.ok(alone instanceof TodokitError);
  assert.deepEqual([alone.index, alone.answered], [undefined, []]);
});

test('plan mode refuses codex\'s update_plan, not claude-code\'s TodoWrite', async () => {
  const codex = new Todokit({ profile: 'codex', memory: true });
  const plan = { plan: [{ step: 'a', status: 'in_progress' }] };
  assert.equal((await codex.call('c', 'update_plan', plan, { mode: 'plan' })).isError, true);
  assert.equal((await codex.call('c', 'update_plan', plan)).isError, false);
  const claude = new Todokit({ memory: true });
  assert.equal((await claude.call('c', 'TodoWrite', ONE, { mode: 'plan' })).isError, false);
});

test('errors are TodokitErrors with a code', async () => {
  assert.throws(() => new Todokit({ profile: 'nope' }), (e) => e instanceof TodokitError && e.code === 'UNKNOWN_PROFILE');
  assert.throws(() => new Todokit({ memory: true, storeDir: folder() }), (e) => e instanceof TodokitError && e.code === 'USAGE');
  const kit = new Todokit({ memory: true });
  await assert.rejects(kit.call('c', 'Nope', {}), (e) => e instanceof TodokitError && e.code === 'UNKNOWN_TOOL');
  await assert.rejects(kit.edit('c', { action: 'done', name: 'missing' }), (e) => e instanceof TodokitError && e.code === 'EDIT');
  kit.close();
  assert.equal(kit.closed, true);
  assert.throws(() => kit.callSync('c', 'TodoWrite', ONE), (e) => e instanceof TodokitError && e.code === 'USAGE');
  await assert.rejects(kit.state('c'), (e) => e instanceof TodokitError && e.code === 'USAGE');
});

test('callSync on PostgreSQL is UNSUPPORTED; await call works there', { skip: !process.env.TODOKIT_TEST_POSTGRES_URL }, async () => {
  const kit = new Todokit({ databaseUrl: process.env.TODOKIT_TEST_POSTGRES_URL ?? '' });
  const conversation = `node-${process.pid}-${Date.now()}`;
  assert.throws(() => kit.callSync(conversation, 'TodoWrite', ONE), (e) => e instanceof TodokitError && e.code === 'UNSUPPORTED');
  assert.equal((await kit.call(conversation, 'TodoWrite', ONE)).isError, false);
  assert.equal((await kit.state(conversation)).version, 1);
  kit.close();
});

test('a default kit reads TODOKIT_STORE as the command does: a database URL is the database', { skip: !process.env.TODOKIT_TEST_POSTGRES_URL }, async () => {
  const url = process.env.TODOKIT_TEST_POSTGRES_URL ?? '';
  const saved = process.env['TODOKIT_STORE'];
  process.env['TODOKIT_STORE'] = url;
  try {
    const kit = new Todokit();
    const conversation = `node-env-${process.pid}-${Date.now()}`;
    assert.equal((await kit.call(conversation, 'TodoWrite', ONE)).isError, false);
    kit.close();
    const reader = new Todokit({ databaseUrl: url });
    assert.equal((await reader.state(conversation)).version, 1);
    reader.close();
  } finally {
    if (saved === undefined) delete process.env['TODOKIT_STORE'];
    else process.env['TODOKIT_STORE'] = saved;
  }
});

test('the command and Node share one store, both ways', async () => {
  const store = folder();
  const kit = new Todokit({ storeDir: store });
  await kit.call('c', 'TodoWrite', ONE);
  const state = await kit.state('c');
  assert.deepEqual(camelCased(cliJson(store, ['show', '--format', 'json'])), state);
  assert.equal(state.phases[0].tasks[0].activeForm, 'Running the tests');
  cli(store, ['done', 'run the tests']);
  assert.deepEqual(await tasks(kit, 'c'), [['Run the tests', 'completed']]);
  const notices = await kit.takeNotices('c');
  assert.deepEqual(notices.map((n) => n.kind), ['user_edit']);
});

test('100 concurrent calls on one conversation advance its version by exactly 100', async () => {
  const kit = new Todokit({ storeDir: folder() });
  const results = await Promise.all(Array.from({ length: 100 }, (_, i) =>
    kit.call('c', 'TodoWrite', { todos: [{ content: `step ${i}`, status: 'in_progress', activeForm: `doing ${i}` }] })));
  assert.ok(results.every((r) => !r.isError));
  assert.equal((await kit.state('c')).version, 100);
});

test('hand edits, the policy and restore', async () => {
  const kit = new Todokit({ memory: true });
  await kit.call('c', 'TodoWrite', ONE);
  assert.equal(typeof (await kit.edit('c', { action: 'done', name: 'run the tests' })), 'string');
  const policy = kit.turnPolicy('c', { endOfTurn: 'strict', nagAfterRounds: 1 });
  const reminders = await policy.beforeRequest();
  assert.deepEqual(reminders.map((r) => r.kind), ['user_edit']);
  await kit.call('c', 'TodoWrite', ONE);
  await policy.onToolResults([{ tool: 'read_file', isError: false }]);
  const nag = await policy.beforeRequest();
  assert.deepEqual(nag.map((r) => r.kind), ['nag']);
  const end = await policy.onTurnEnd();
  assert.equal(end.action, 'continue');
  assert.equal((await policy.counters()).rounds_since_todo, 1);
  const restored = await kit.restore('r', [
    { role: 'assistant', content: null, tool_calls: [{ id: '1', type: 'function', function: { name: 'TodoWrite', arguments: JSON.stringify(ONE) } }] },
  ]);
  assert.equal(restored.state.version, 1);
  assert.deepEqual(await tasks(kit, 'r'), [['Run the tests', 'in_progress']]);
});

test('a turn is carried on by a second kit on the same store', async () => {
  // What one kit's turn remembers (counters, a queued nag, how strict the
  // end of the turn is) is stored with the conversation: a second kit on
  // the same folder (a restarted process) carries on where the first stopped.
  const store = folder();
  const first = new Todokit({ storeDir: store });
  await first.call('c', 'TodoWrite', ONE);
  const policy = first.turnPolicy('c', { endOfTurn: 'strict', nagAfterRounds: 2 });
  await policy.onUserPrompt();
  await policy.onToolResults([{ tool: 'Bash', isError: false, id: 'call-1' }]);
  await policy.onToolResults([{ tool: 'Read', isError: false, id: 'call-2' }]);
  const counters = await policy.counters();
  first.close();
  const second = new Todokit({ storeDir: store });
  const resumed = second.turnPolicy('c', { nagAfterRounds: 2 });
  assert.deepEqual(await resumed.counters(), counters);
  assert.equal(counters.rounds_since_todo, 2);
  // The round told already is not counted again.
  await resumed.onToolResults([{ tool: 'Read', isError: false, id: 'call-2' }]);
  assert.equal((await resumed.counters()).rounds_since_todo, 2);
  assert.deepEqual((await resumed.beforeRequest()).map((i) => i.kind), ['nag']);
  // Stored strict by the first kit: the second sends the model back.
  const end = await resumed.onTurnEnd({ carry: true });
  assert.equal(end.action, 'continue');
  second.close();
  const third = new Todokit({ storeDir: store });
  assert.deepEqual((await third.turnPolicy('c').beforeRequest()).map((i) => i.kind), ['end_of_turn']);
  assert.equal((await third.state('c')).version, 1);
  third.close();
});

test('ids that are not strings are TypeErrors', async () => {
  const kit = new Todokit({ memory: true });
  for (const id of [5, null, undefined, {}, ['c']]) {
    await assert.rejects(kit.call(/** @type {any} */ (id), 'TodoWrite', ONE), TypeError);
    assert.throws(() => kit.callSync('c', /** @type {any} */ (id), ONE), TypeError);
    await assert.rejects(kit.state(/** @type {any} */ (id)), TypeError);
  }
  assert.throws(() => new Todokit({ profile: /** @type {any} */ (7) }), TypeError);
});
