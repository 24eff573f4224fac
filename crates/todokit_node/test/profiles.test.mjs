// @ts-check
/** Every profile's example through `call` and `callSync`, against the binary. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Todokit, profiles } from 'todokit';

import { camelCased, cliJson, folder } from './support.mjs';

for (const name of profiles()) {
  test(`${name}: the example through call and callSync is what the binary shows`, async () => {
    const store = folder();
    const kit = new Todokit({ profile: name, storeDir: store });
    try {
      const example = kit.profile.example;
      assert.ok(example, 'every profile has an example');
      const awaited = await kit.call('async', example.tool, example.arguments);
      const sync = kit.callSync('sync', example.tool, JSON.parse(example.arguments));
      assert.equal(awaited.isError, false, awaited.content);
      assert.equal(sync.isError, false, sync.content);
      assert.equal(typeof awaited.details, 'object');
      for (const conversation of ['async', 'sync']) {
        const state = await kit.state(conversation);
        assert.deepEqual(state, camelCased(cliJson(store, ['show', '--format', 'json'], { profile: name, conversation })));
        assert.equal(state.version, 1);
      }
    } finally {
      kit.close();
    }
  });
}

test('the profile and its definitions are the binary\'s', () => {
  const store = folder();
  const kit = new Todokit({ profile: 'deepagents', memory: true });
  for (const target of /** @type {const} */ (['json-schema', 'openai', 'openai-strict', 'anthropic', 'mcp'])) {
    assert.deepEqual(kit.definitions(target), cliJson(store, ['schema', '--target', target], { profile: 'deepagents' }));
  }
  assert.equal(kit.profile.name, 'deepagents');
  assert.ok(kit.profile.systemPrompt.includes('write_todos'));
  assert.deepEqual(kit.profile.tools.map((t) => t.name), ['write_todos']);
});
