/**
 * The package's one error class. A payload the model got wrong is never an
 * error (it is a result with `isError`); a `TodokitError` is the host's own
 * mistake or the store's failure, told apart by `code`.
 */

/** What went wrong, by kind. */
export type TodokitErrorCode =
  | 'UNKNOWN_PROFILE'
  | 'UNKNOWN_TOOL'
  | 'STORE'
  | 'STORE_UNCERTAIN'
  | 'EDIT'
  | 'UNSUPPORTED'
  | 'USAGE';

const CODES: ReadonlySet<string> = new Set([
  'UNKNOWN_PROFILE',
  'UNKNOWN_TOOL',
  'STORE',
  'STORE_UNCERTAIN',
  'EDIT',
  'UNSUPPORTED',
  'USAGE',
]);

/**
 * An error of todokit's: `UNKNOWN_PROFILE`, `UNKNOWN_TOOL`, `STORE`,
 * `STORE_UNCERTAIN` (a write whose outcome cannot be known: it may have
 * been stored), `EDIT` (a refused hand edit), `UNSUPPORTED` (`callSync` on
 * a PostgreSQL kit) or `USAGE` (a closed kit, a wrong option).
 */
export class TodokitError extends Error {
  /** What went wrong, by kind. */
  readonly code: TodokitErrorCode;

  constructor(code: TodokitErrorCode, message: string) {
    super(message);
    this.name = 'TodokitError';
    this.code = code;
  }
}

const TAGGED = /^\[todokit:([A-Z_]+)\] ([\s\S]*)$/;

/** The native module's error as a `TodokitError` (others pass as they are). */
export function translate(error: unknown): unknown {
  if (error instanceof Error) {
    const found = TAGGED.exec(error.message);
    if (found !== null && CODES.has(found[1] ?? '')) {
      return new TodokitError(found[1] as TodokitErrorCode, found[2] ?? '');
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
