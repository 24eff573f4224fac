/**
 * The package's one error class. A payload the model got wrong is never an
 * error (it is a result with `isError`); a `TodokitError` is the host's own
 * mistake or the store's failure, told apart by `code`.
 */

import { binding } from './native.js';
import { Result } from './result.js';
import type { ToolResult } from './types.js';

/** What went wrong, by kind (the native module's `errorCodes()`, which a
 * Rust test holds this type to). */
export type TodokitErrorCode =
  | 'UNKNOWN_PROFILE'
  | 'UNKNOWN_TOOL'
  | 'STORE'
  | 'STORE_UNCERTAIN'
  | 'EDIT'
  | 'UNSUPPORTED'
  | 'USAGE';

/** The codes, as the native module defines them. */
const CODES: ReadonlySet<string> = new Set(binding.errorCodes());

/**
 * An error of todokit's: `UNKNOWN_PROFILE`, `UNKNOWN_TOOL`, `STORE`,
 * `STORE_UNCERTAIN` (a write whose outcome cannot be known: it may have
 * been stored), `EDIT` (a refused hand edit), `UNSUPPORTED` (`callSync` on
 * a PostgreSQL kit) or `USAGE` (a closed kit, a wrong option).
 */
export class TodokitError extends Error {
  /** What went wrong, by kind. */
  readonly code: TodokitErrorCode;
  /**
   * When the failure ended a round (`callRound`): the position of the call
   * that failed in the calls given (the calls after it did not run);
   * otherwise `undefined`.
   */
  readonly index: number | undefined;
  /**
   * When the failure ended a round: the results of the calls before
   * `index`, in order (what they stored stays stored); otherwise empty.
   */
  readonly answered: readonly ToolResult[];

  constructor(code: TodokitErrorCode, message: string, round?: { index: number; answered: readonly ToolResult[] }) {
    super(message);
    this.name = 'TodokitError';
    this.code = code;
    this.index = round?.index;
    this.answered = round?.answered ?? [];
  }
}

const TAGGED = /^\[todokit:([A-Z_]+)\] ([\s\S]*)$/;

/** The line a failure that ended a round adds to its message. */
const ROUND_TAG = '\n[todokit:round] ';

/** The round a native message tells of, and the message without it. */
function roundOf(message: string): [string, { index: number; answered: readonly ToolResult[] } | undefined] {
  const at = message.lastIndexOf(ROUND_TAG);
  if (at < 0) {
    return [message, undefined];
  }
  type Answered = { content: string; isError: boolean; details: unknown };
  let raw: { index: number; answered: Answered[] };
  try {
    // Read only when a store failure ended a round, never on a return.
    raw = JSON.parse(message.slice(at + ROUND_TAG.length)) as { index: number; answered: Answered[] };
  } catch {
    // Not the native module's line after all: the message as it is.
    return [message, undefined];
  }
  const answered = raw.answered.map(
    (answer) => new Result({ content: answer.content, isError: answer.isError, details: () => answer.details }),
  );
  return [message.slice(0, at), { index: raw.index, answered }];
}

/** The native module's error as a `TodokitError` (others pass as they are). */
export function translate(error: unknown): unknown {
  if (error instanceof Error) {
    const found = TAGGED.exec(error.message);
    if (found !== null && CODES.has(found[1] ?? '')) {
      const [message, round] = roundOf(found[2] ?? '');
      return new TodokitError(found[1] as TodokitErrorCode, message, round);
    }
  }
  return error;
}

/** Runs `work`, its native errors translated. */
export function native<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw translate(error);
  }
}

/** Awaits `work` (a promise, or the value itself when the kit ran it at
 * once), its native errors translated. */
export async function nativeAsync<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw translate(error);
  }
}
