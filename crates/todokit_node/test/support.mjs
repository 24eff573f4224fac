// @ts-check
/** Shared helpers: the real `todokit` binary, store folders, waiting. */

import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
