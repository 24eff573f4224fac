// @ts-check
/** `subscribe`: a live feed that ends when told and never keeps node alive. */

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

import { Todokit } from 'todokit';

import { ONE, cli, folder, within } from './support.mjs';

test('a feed gives the list now, then each commit, from this process and from the command', async () => {
  const store = folder();
  const kit = new Todokit({ storeDir: store });
  const feed = kit.subscribe('c');
  const first = await within(feed.next(), 5000);
  assert.equal(first.value?.version, 0);
  await kit.call('c', 'TodoWrite', ONE);
  assert.equal((await within(feed.next(), 5000)).value?.version, 1);
  cli(store, ['done', 'run the tests']);
  const fromCli = await within(feed.next(), 10_000);
  assert.equal(fromCli.value?.version, 2);
  assert.deepEqual(fromCli.value, await kit.state('c'));
  await feed.return();
  assert.equal(feed.closed, true);
  assert.deepEqual(await feed.next(), { value: undefined, done: true });
  kit.close();
});

test('two next() waiting together: each gets a version, neither is left behind', async () => {
  const store = folder();
  const kit = new Todokit({ storeDir: store });
  const feed = kit.subscribe('c');
  assert.equal((await within(feed.next(), 5000)).value?.version, 0);
  const one = feed.next();
  const two = feed.next();
  await kit.call('c', 'TodoWrite', ONE);
  const first = await within(Promise.race([one, two]), 5000);
  await kit.call('c', 'TodoWrite', { todos: [] });
  const both = await within(Promise.all([one, two]), 5000);
  assert.deepEqual(both.map((r) => r.value?.version).sort(), [1, 2]);
  assert.equal(first.value?.version, 1);
  feed.close();
  kit.close();
});

test('leaving a for-await loop, an AbortSignal and the kit\'s close() each end a feed', async () => {
  const kit = new Todokit({ memory: true });
  const left = kit.subscribe('c');
  for await (const state of left) {
    assert.equal(state.version, 0);
    break;
  }
  assert.equal(left.closed, true);

  const controller = new AbortController();
  const aborted = kit.subscribe('c', { signal: controller.signal });
  await aborted.next();
  const waiting = aborted.next();
  controller.abort();
  assert.deepEqual(await within(waiting, 5000), { value: undefined, done: true });

  const open = kit.subscribe('c');
  await open.next();
  const pending = open.next();
  kit.close();
  assert.deepEqual(await within(pending, 5000), { value: undefined, done: true });
});

const EXIT_SCRIPT = `
import { Todokit } from 'todokit';
const [where, how] = process.argv.slice(2);
const kit = where.startsWith('postgres') ? new Todokit({ databaseUrl: where }) : new Todokit({ storeDir: where });
const conversation = 'exit-' + process.pid;
const feeds = [kit.subscribe(conversation), kit.subscribe(conversation)];
await feeds[0].next();
void (async () => { for await (const _ of feeds[1]) { /* follows */ } })();
await kit.call(conversation, 'TodoWrite', { todos: [] });
feeds[0].next();
if (how === 'exit') process.exit(0);
`;

/** @param {string} where @param {string} how @param {number} runs */
function exits(where, how, runs) {
  const codes = [];
  for (let run = 0; run < runs; run += 1) {
    const done = spawnSync(process.execPath, ['--input-type=module', '-e', EXIT_SCRIPT, where, how], { encoding: 'utf8', timeout: 60_000 });
    codes.push([done.status, done.signal, done.stderr.slice(-300)]);
  }
  return codes;
}

test('a process with open subscriptions exits with 0, naturally or by process.exit()', () => {
  const store = folder();
  const actual = [...exits(store, 'return', 6), ...exits(store, 'exit', 4)];
  assert.deepEqual(actual, Array.from({ length: 10 }, () => [0, null, '']));
});

test('on PostgreSQL too', { skip: !process.env.TODOKIT_TEST_POSTGRES_URL }, async () => {
  const url = process.env.TODOKIT_TEST_POSTGRES_URL ?? '';
  const kit = new Todokit({ databaseUrl: url });
  const other = new Todokit({ databaseUrl: url });
  const conversation = `feed-${process.pid}-${Date.now()}`;
  const feed = kit.subscribe(conversation);
  assert.equal((await within(feed.next(), 10_000)).value?.version, 0);
  await other.call(conversation, 'TodoWrite', ONE);
  assert.equal((await within(feed.next(), 10_000)).value?.version, 1);
  kit.close();
  other.close();
  assert.deepEqual(exits(url, 'return', 3), Array.from({ length: 3 }, () => [0, null, '']));
});
