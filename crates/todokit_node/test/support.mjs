// @ts-check
/** Shared helpers: the real `todokit` binary, store folders, waiting, the
 * AI SDK mock model's steps. */

import { execFileSync, spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The command built from this workspace (`make node-test` sets it). */
export function binary() {
  const path = process.env.TODOKIT_BIN;
  if (!path) throw new Error('TODOKIT_BIN must name the built todokit binary');
  return path;
}

/**
 * Runs the binary on `store` and returns its standard output.
 * @param {string} store
 * @param {string[]} args
 * @param {{profile?: string, conversation?: string}} [options]
 */
export function cli(store, args, options = {}) {
  return execFileSync(
    binary(),
    ['--store', store, '--profile', options.profile ?? 'claude-code', '--conversation', options.conversation ?? 'c', ...args],
    { encoding: 'utf8' },
  );
}

/**
 * The binary's JSON output.
 * @param {string} store
 * @param {string[]} args
 * @param {{profile?: string, conversation?: string}} [options]
 * @returns {any}
 */
export function cliJson(store, args, options = {}) {
  return JSON.parse(cli(store, args, options));
}

/**
 * `value` as the package hands a stored document to JavaScript: every
 * key in camelCase, a task's `metadata` as the model wrote it.
 * @param {unknown} value
 * @returns {unknown}
 */
export function camelCased(value) {
  if (Array.isArray(value)) {
    return value.map(camelCased);
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key.replace(/(?<=.)_(.)/g, (_, /** @type {string} */ letter) => letter.toUpperCase()),
      key === 'metadata' ? inner : camelCased(inner),
    ]),
  );
}

/** A fresh folder. */
export function folder() {
  return mkdtempSync(join(tmpdir(), 'todokit-node-'));
}

/**
 * `promise`, or a rejection after `ms` (a referenced timer keeps the
 * process alive meanwhile, as a host's server would).
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @returns {Promise<T>}
 */
export async function within(promise, ms) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms);
  });
  try {
    return /** @type {T} */ (await Promise.race([promise, timeout]));
  } finally {
    clearTimeout(timer);
  }
}

export const ONE = { todos: [{ content: 'Run the tests', status: 'in_progress', activeForm: 'Running the tests' }] };

/** The usage a scripted AI SDK step reports. */
const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/**
 * A scripted AI SDK model step (`MockLanguageModelV4`) that calls tools.
 * @param {Array<[string, unknown]>} calls the tool and its input (a value, or the model's JSON text)
 * @param {string} [prefix]
 */
export function toolStep(calls, prefix = 'call') {
  return {
    content: calls.map(([toolName, input], i) => ({
      type: /** @type {const} */ ('tool-call'),
      toolCallId: `${prefix}-${i}`,
      toolName,
      input: typeof input === 'string' ? input : JSON.stringify(input),
    })),
    finishReason: { unified: /** @type {const} */ ('tool-calls'), raw: 'tool_calls' },
    usage: USAGE,
    warnings: [],
  };
}

/** A model step that answers in text and stops.
 * @param {string} text */
export function textStep(text) {
  return {
    content: [{ type: /** @type {const} */ ('text'), text }],
    finishReason: { unified: /** @type {const} */ ('stop'), raw: 'stop' },
    usage: USAGE,
    warnings: [],
  };
}


/**
 * Type-checks a block of the README or the docs against the installed packages' types, as an
 * editor would check a host's plain JavaScript (not strict: the README
 * carries no annotations).
 * @param {string} file
 */
export function typeCheck(file) {
  const tsc = process.env.TODOKIT_TSC;
  if (!tsc) throw new Error('TODOKIT_TSC must name tsc (node-package.sh sets it)');
  // @types/node comes with the package's dev dependencies, beside tsc.
  const typeRoots = join(dirname(dirname(tsc)), '@types');
  const args = ['--allowJs', '--checkJs', '--noEmit', '--module', 'nodenext', '--target', 'es2022', '--skipLibCheck'];
  args.push('--typeRoots', typeRoots, '--types', 'node', file);
  const run = spawnSync(tsc, args, { encoding: 'utf8', timeout: 120_000 });
  assert.equal(run.stdout + run.stderr, '');
  assert.equal(run.status, 0);
}

/**
 * Writes a block of the README or the docs as a module under this project
 * (so its imports resolve from here), type-checks it and returns its path.
 * @param {string} name
 * @param {string} code
 */
export function moduleOf(name, code) {
  mkdirSync(join(process.cwd(), 'readme'), { recursive: true });
  const file = join(process.cwd(), 'readme', name);
  writeFileSync(file, code);
  typeCheck(file);
  return file;
}
