// @ts-check
/** The README's TypeScript examples, type-checked and run as written (the
 * AI SDK host with the SDK's scripted model in place of the one it names). */

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { MockLanguageModelV4 } from 'ai/test';

import { cliJson, folder, moduleOf, textStep, toolStep } from './support.mjs';

function blocks() {
  const path = process.env.TODOKIT_README;
  if (!path) throw new Error('TODOKIT_README must name the README (node-package.sh sets it)');
  const section = readFileSync(path, 'utf8').split('## Using it from TypeScript')[1]?.split('\n## ')[0] ?? '';
  const found = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  assert.equal(found.length, 2);
  return found;
}

test('the README example runs', () => {
  const file = moduleOf('example.mjs', blocks()[0] ?? '');
  const run = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
  assert.match(run.stdout, /^false Todos have been modified successfully/);
  assert.match(run.stdout, /version: 1/);
});

test('the README AI SDK host runs on the default store', async () => {
  const store = folder();
  process.env['TODOKIT_STORE'] = store;
  const host = await import(pathToFileURL(moduleOf('ai-host.mjs', blocks()[1] ?? '')).href);
  const plan = { todos: [{ content: 'Rename the module', status: 'in_progress', activeForm: 'Renaming the module' }] };
  const done = { todos: [{ content: 'Rename the module', status: 'completed', activeForm: 'Renaming the module' }] };
  const model = new MockLanguageModelV4({
    doGenerate: [
      toolStep([['TodoWrite', plan]], 'r1'),
      textStep('Renamed; the imports come next.'), // strict: sent back
      toolStep([['TodoWrite', done]], 'r2'),
      textStep('Renamed and fixed.'),
    ],
  });
  /** @type {Array<Record<string, unknown>>} */
  const messages = [{ role: 'user', content: 'Rename the config module.' }];
  assert.equal(await host.runTurn(model, 'rename-config', messages), 'Renamed and fixed.');
  assert.equal(model.doGenerateCalls.length, 4);
  // The transcript the host keeps holds every step: both todo calls and
  // both results (a host keeping only the last step's would lose them).
  /** @param {string} role @param {string} type */
  const parts = (role, type) =>
    messages
      .filter((message) => message['role'] === role && Array.isArray(message['content']))
      .flatMap((message) => /** @type {Array<Record<string, unknown>>} */ (message['content']))
      .filter((part) => part['type'] === type && part['toolName'] === 'TodoWrite').length;
  assert.deepEqual([parts('assistant', 'tool-call'), parts('tool', 'tool-result')], [2, 2]);
  delete process.env['TODOKIT_STORE'];
  // The command, on its own default store, shows what the host wrote.
  const shown = cliJson(store, ['show', '--format', 'json'], { conversation: 'rename-config' });
  assert.equal(shown.version, 2);
});
