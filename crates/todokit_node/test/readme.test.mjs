// @ts-check
/** The README's TypeScript example, run as written. */

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

test('the README example runs', () => {
  const path = process.env.TODOKIT_README;
  if (!path) throw new Error('TODOKIT_README must name the README (node-package.sh sets it)');
  const section = readFileSync(path, 'utf8').split('## Using it from TypeScript')[1]?.split('\n## ')[0] ?? '';
  const blocks = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  assert.equal(blocks.length, 1);
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', blocks[0] ?? ''], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
  assert.match(run.stdout, /^false Todos have been modified successfully/);
  assert.match(run.stdout, /version: 1/);
});
