// Forgetting conversations from Node: `forget` and `prune` on a folder
// (checked against the command's view of the same folder) and on
// PostgreSQL.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { Todokit, TodokitError } from 'todokit';

import { ONE, cliJson, folder } from './support.mjs';

/** @param {string} store @returns {string[]} */
const ids = (store) => cliJson(store, ['conversations', '--format', 'json']).map((/** @type {{id: string}} */ c) => c.id).sort();

test('forget and prune remove conversations whole from a folder', async () => {
  const store = folder();
  const kit = new Todokit({ storeDir: store });
  for (const conversation of ['old', 'kept', 'gone']) {
    assert.equal((await kit.call(conversation, 'TodoWrite', ONE)).isError, false);
  }
  const then = Date.now() / 1000 - 2 * 86400;
  utimesSync(join(store, 'c-old.json'), then, then);
  const forgotten = [await kit.forget('gone'), await kit.forget('gone'), await kit.forget('never')];
  const named = await kit.prune(86400, { dryRun: true });
  const stillThere = ids(store);
  const pruned = await kit.prune(86400);
  assert.deepEqual(
    [forgotten, named, stillThere, pruned, ids(store)],
    [[true, false, false], ['old'], ['kept', 'old'], ['old'], ['kept']],
  );
  assert.equal((await kit.state('gone')).version, 0);
  assert.deepEqual(readdirSync(store).filter((n) => !n.startsWith('.')).sort(), ['c-kept.json', 'c-kept.lock']);
  kit.close();
});

test('a prune idle for no time or no number is refused and nothing goes', async () => {
  const kit = new Todokit({ memory: true });
  await kit.call('c', 'TodoWrite', ONE);
  for (const idle of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '1d', null]) {
    await assert.rejects(kit.prune(/** @type {any} */ (idle)), (error) => error instanceof TodokitError && error.code === 'USAGE');
  }
  await assert.rejects(kit.prune(60, { prefix: /** @type {any} */ (7) }), TypeError);
  await assert.rejects(kit.prune(60, { dryRun: /** @type {any} */ ('yes') }), TypeError);
  assert.equal((await kit.state('c')).version, 1);
  kit.close();
});

test('forget on PostgreSQL is seen by another kit; a fresh list is not pruned', { skip: !process.env.TODOKIT_TEST_POSTGRES_URL }, async () => {
  const url = process.env.TODOKIT_TEST_POSTGRES_URL ?? '';
  const prefix = `node-${randomUUID()}/`;
  const writer = new Todokit({ databaseUrl: url });
  const reader = new Todokit({ databaseUrl: url });
  for (const name of ['a', 'b']) {
    assert.equal((await writer.call(prefix + name, 'TodoWrite', ONE)).isError, false);
  }
  assert.equal(await writer.forget(`${prefix}a`), true);
  assert.equal((await reader.state(`${prefix}a`)).version, 0);
  assert.deepEqual(await reader.prune(3600, { prefix }), []);
  const left = (await reader.conversations()).map((c) => String(c.id)).filter((id) => id.startsWith(prefix));
  assert.deepEqual(left, [`${prefix}b`]);
  writer.close();
  reader.close();
});
