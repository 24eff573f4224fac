// @ts-check
/** The README's quick start, the MCP client's and the TypeScript host's
 * recipes, run as written in this project, which installed the package
 * from its tarball (so `npx -y todokit` finds it here, as it would after
 * `npm i todokit`, with no registry): the MCP configuration the recipe
 * writes is started and spoken to with the official MCP SDK's client, the
 * AI SDK recipe runs with the SDK's scripted model in place of yours, and
 * each recipe's `todokit watch --latest` line shows what was written.
 * (`claude` itself, Claude Code, is not installed here.) */

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MockLanguageModelV4 } from 'ai/test';

import { folder, textStep, toolStep, within } from './support.mjs';

/** The quick start's fenced blocks, as [language, body]. */
function quickStart() {
  const path = process.env.TODOKIT_README;
  if (!path) throw new Error('TODOKIT_README must name the README (node-package.sh sets it)');
  const section = readFileSync(path, 'utf8').split('## Quick start by host')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/```(\S*)\n([\s\S]*?)```/g)].map((m) => [m[1] ?? '', m[2] ?? '']);
}

/** The quick start's block that holds `marker`. @param {string} marker */
function block(marker) {
  const found = quickStart().filter(([, body]) => body.includes(marker));
  assert.equal(found.length, 1, `one quick start block holds ${marker}`);
  return found[0]?.[1] ?? '';
}

/**
 * A folder inside this project, as a user's project folder would be,
 * removed when the test ends.
 * @param {import('node:test').TestContext} t
 */
function projectFolder(t) {
  const project = mkdtempSync(join(process.cwd(), 'quickstart-'));
  t.after(() => rmSync(project, { recursive: true, force: true }));
  return project;
}

/**
 * The first line `line` (a shell command line) prints, the command then
 * stopped: `watch` runs until it is told to stop.
 * @param {string} line @param {string} cwd @param {string} store
 * @returns {Promise<string>}
 */
async function firstLine(line, cwd, store) {
  const child = spawn('bash', ['-c', line], {
    cwd,
    env: { ...process.env, TODOKIT_STORE: store },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  try {
    return await within(
      new Promise((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const newline = out.indexOf('\n');
          if (newline >= 0) resolve(out.slice(0, newline));
        });
        child.on('exit', (code) => reject(new Error(`${line} ended (${code}) before a line: ${err}`)));
      }),
      30_000,
    );
  } finally {
    // The whole group: npx, and the command it started.
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
  }
}

test('the agent recipe, run from the package, writes a server that answers', async (t) => {
  const project = projectFolder(t);
  const store = folder();
  const line = block('todokit setup claude-code')
    .split('\n')
    .find((l) => l.startsWith('todokit setup claude-code'));
  assert.ok(line);
  // As written, with the package's own command first on PATH.
  const bin = join(process.cwd(), 'node_modules', '.bin');
  /** @type {Record<string, string | undefined>} */
  const env = { ...process.env, PATH: `${bin}:${process.env['PATH']}`, TODOKIT_STORE: store };
  delete env['TODOKIT_LAUNCHER'];
  const setup = spawnSync('bash', ['-euo', 'pipefail', '-c', line], { cwd: project, encoding: 'utf8', env });
  assert.equal(setup.status, 0, setup.stderr);
  const settings = JSON.parse(readFileSync(join(project, '.claude/settings.json'), 'utf8'));
  assert.deepEqual(settings.permissions.deny, ['TodoWrite', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate']);

  // The server, as Claude Code starts it from .mcp.json: the package's own
  // script (not node, which runs it), by its absolute path.
  const server = JSON.parse(readFileSync(join(project, '.mcp.json'), 'utf8')).mcpServers.todokit;
  assert.match(server.command, /^\/.*todokit/);
  assert.equal(realpathSync(server.command), realpathSync(join(bin, 'todokit')));
  const transport = new StdioClientTransport({ command: server.command, args: server.args, cwd: project, stderr: 'ignore' });
  const client = new Client({ name: 'quickstart', version: '1.0.0' });
  await within(client.connect(transport), 60_000);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ['TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate']);
    const result = await client.callTool({
      name: 'TaskCreate',
      arguments: { subject: 'Run the tests', description: 'All of them', activeForm: 'Running the tests' },
    });
    assert.ok(!result.isError, JSON.stringify(result));
  } finally {
    await client.close();
  }

  const watch = block('npx todokit watch --latest').trim();
  assert.match(await firstLine(watch, project, store), /^quickstart-\w+: version 1 by claude-tasks: 0\/1 completed/);
});

test('the AI SDK recipe keeps every step, the todo call and its result too', async (t) => {
  const store = folder();
  const project = projectFolder(t);
  const file = join(project, 'agent.mjs');
  // As written, plus a line handing the test what the recipe kept.
  writeFileSync(file, `${block("from 'todokit/ai'")}export { text, responseMessages };\n`);
  const plan = { todos: [{ content: 'Ship it', status: 'in_progress', activeForm: 'Shipping it' }] };
  // The recipe's free names, `model` and `prompt`, are yours: here the
  // SDK's scripted model.
  Object.assign(globalThis, {
    model: new MockLanguageModelV4({ doGenerate: [toolStep([['TodoWrite', plan]], 'q'), textStep('Planned.')] }),
    prompt: 'Plan the release.',
  });
  process.env['TODOKIT_STORE'] = store;
  /** @type {{ text: string, responseMessages: Array<Record<string, unknown>> }} */
  let recipe;
  try {
    recipe = await import(pathToFileURL(file).href);
  } finally {
    delete process.env['TODOKIT_STORE'];
  }
  assert.equal(recipe.text, 'Planned.');
  /** @param {string} role @param {string} type */
  const parts = (role, type) =>
    recipe.responseMessages
      .filter((message) => message['role'] === role && Array.isArray(message['content']))
      .flatMap((message) => /** @type {Array<Record<string, unknown>>} */ (message['content']))
      .filter((part) => part['type'] === type && part['toolName'] === 'TodoWrite').length;
  assert.deepEqual([parts('assistant', 'tool-call'), parts('tool', 'tool-result')], [1, 1]);

  const watch = block('npx todokit watch --latest').trim();
  assert.match(await firstLine(watch, project, store), /my-project.*Shipping it|Shipping it.*my-project/);
});
