/**
 * todokit: every agent's todo-list tool, in process.
 *
 * A `Todokit` is one profile (the tools one agent's model was trained on)
 * over one store: the command's own folder by default, so a list written
 * here is what `todokit show` and `todokit watch` see. Values are the JSON
 * the Rust library writes, with the same fields and names as the
 * command's `--format json`.
 *
 * ```ts
 * import { Todokit } from 'todokit';
 * const kit = new Todokit({ profile: 'claude-code', memory: true });
 * const result = await kit.call('c', 'TodoWrite', { todos: [
 *   { content: 'Run the tests', status: 'in_progress', activeForm: 'Running the tests' }] });
 * ```
 */

import { TodokitError, native, nativeAsync } from './errors.js';
import { binding, type NativeKit } from './native.js';
import { Result } from './result.js';
import { TurnPolicy } from './policy.js';
import { Subscription } from './subscription.js';
import type {
  ConversationSummary,
  EditAction,
  Mode,
  Notice,
  Profile,
  Restored,
  State,
  Target,
  Tool,
  ToolResult,
} from './types.js';

export { TodokitError, type TodokitErrorCode } from './errors.js';
export { TurnPolicy, type RoundCall } from './policy.js';
export { Subscription } from './subscription.js';
export type * from './types.js';

/** The package's version. */
export const VERSION: string = binding.version();

/** The names of every profile, in registration order. */
export function profiles(): string[] {
  return binding.profiles();
}

/** Where a kit keeps its lists: at most one of these; none is the
 * command's default folder (`TODOKIT_STORE`, else the platform's). */
export interface TodokitOptions {
  /** The profile; `claude-code` when left out. */
  profile?: string;
  /** A folder of JSON files. */
  storeDir?: string;
  /** Lists in this process only. */
  memory?: boolean;
  /** A PostgreSQL URL. */
  databaseUrl?: string;
}

/** Options of one call. */
export interface CallOptions {
  /** The host's mode (`plan` refuses what the original refuses there). */
  mode?: Mode;
}

/** What `Todokit.prune` takes besides the idle time. */
export interface PruneOptions {
  /** Only conversations whose id starts with this (a tenant's `name/`). */
  prefix?: string;
  /** Name what would go, remove nothing. */
  dryRun?: boolean;
}

/** The model's arguments: its JSON text as it came (a string, or UTF-8
 * bytes), or any value `JSON.stringify` writes. */
export type Arguments = unknown;

/** `value`, checked to be a string (a TypeError naming `what` otherwise). */
function str(what: string, value: unknown): string {
  if (typeof value !== 'string') {
    throw new TypeError(`${what} must be a string, not ${value === null ? 'null' : typeof value}`);
  }
  return value;
}

function argumentBytes(args: Arguments): Buffer {
  if (typeof args === 'string') {
    return Buffer.from(args, 'utf8');
  }
  if (args instanceof Uint8Array) {
    return Buffer.from(args.buffer, args.byteOffset, args.byteLength);
  }
  // Throws a TypeError for a BigInt or a cycle, as a host expects.
  const text: string | undefined = JSON.stringify(args);
  if (text === undefined) {
    throw new TypeError(`the arguments cannot be written as JSON: ${typeof args}`);
  }
  return Buffer.from(text, 'utf8');
}


function profileOf(document: unknown): Profile {
  const raw = document as {
    name: string;
    summary: string;
    system_prompt: string;
    tools: Tool[];
    upstream: Record<string, unknown> | null;
    example: { tool: string; arguments: string } | null;
  };
  return Object.freeze({
    name: raw.name,
    summary: raw.summary,
    systemPrompt: raw.system_prompt,
    tools: Object.freeze(raw.tools.map((tool) => Object.freeze(tool))),
    upstream: raw.upstream,
    example: raw.example,
  });
}

/**
 * One profile over one store. `close()` it when done: later calls throw
 * `TodokitError` (`USAGE`) and its open subscriptions end.
 */
export class Todokit {
  readonly #kit: NativeKit;
  /** The profile this kit speaks. */
  readonly profile: Profile;

  constructor(options: TodokitOptions = {}) {
    const { profile = 'claude-code', storeDir, memory, databaseUrl } = options;
    str('profile', profile);
    this.#kit = native(() => new binding.NativeKit(profile, storeDir ?? null, memory ?? false, databaseUrl ?? null));
    this.profile = profileOf(native(() => this.#kit.profile()));
  }

  /** The profile's tool definitions in `target`'s shape: exactly what
   * `todokit schema --target` prints. */
  definitions(target: Target = 'json-schema'): Array<Record<string, unknown>> {
    return native(() => this.#kit.definitions(target)) as Array<Record<string, unknown>>;
  }

  /** Runs one call of `tool` with the model's arguments. A payload the
   * model got wrong is a result with `isError`, never a rejection. */
  async call(conversation: string, tool: string, args: Arguments, options: CallOptions = {}): Promise<ToolResult> {
    str('conversation', conversation);
    str('tool', tool);
    const bytes = argumentBytes(args);
    return new Result(await nativeAsync(() => this.#kit.call(conversation, tool, bytes, options.mode ?? null)));
  }

  /** `call` on this thread, for the memory and file stores (a PostgreSQL
   * kit throws `UNSUPPORTED`: it would block the event loop). */
  callSync(conversation: string, tool: string, args: Arguments, options: CallOptions = {}): ToolResult {
    str('conversation', conversation);
    str('tool', tool);
    const bytes = argumentBytes(args);
    return new Result(native(() => this.#kit.callSync(conversation, tool, bytes, options.mode ?? null)));
  }

  /** Runs the todo calls of one model turn, in order (a profile that
   * allows a tool once per turn refuses every call of a turn holding
   * several, as deepagents does). */
  async callRound(
    conversation: string,
    calls: ReadonlyArray<{ tool: string; arguments: Arguments }>,
    options: CallOptions = {},
  ): Promise<ToolResult[]> {
    str('conversation', conversation);
    const tools = calls.map((call) => str('tool', call.tool));
    const bytes = calls.map((call) => argumentBytes(call.arguments));
    const answers = await nativeAsync(() => this.#kit.callRound(conversation, tools, bytes, options.mode ?? null));
    return answers.map((answer) => new Result(answer));
  }

  /** The stored list: exactly `todokit show --format json`. */
  async state(conversation: string): Promise<State> {
    str('conversation', conversation);
    return (await nativeAsync(() => this.#kit.state(conversation))) as State;
  }

  /** The store's conversations, most recently changed first: exactly
   * `todokit conversations --format json`. */
  async conversations(): Promise<ConversationSummary[]> {
    return (await nativeAsync(() => this.#kit.conversations())) as ConversationSummary[];
  }

  /** Removes `conversation` for good, as `todokit forget` does: its list
   * and what the agent loop kept beside it. Whether anything was stored. A
   * writer racing it is either removed whole or kept whole. */
  async forget(conversation: string): Promise<boolean> {
    str('conversation', conversation);
    return (await nativeAsync(() => this.#kit.forget(conversation))) as boolean;
  }

  /** Removes every conversation whose id starts with `options.prefix` and
   * that has not changed for `idleSeconds`, as `todokit prune` does; with
   * `options.dryRun`, only names them. The ids, sorted. One written while
   * it runs is kept. An idle time that is not a number above zero throws
   * `TodokitError` (`USAGE`). */
  async prune(idleSeconds: number, options: PruneOptions = {}): Promise<string[]> {
    if (typeof idleSeconds !== 'number') {
      throw new TodokitError('USAGE', `prune needs an idle time in seconds, a number; got ${typeof idleSeconds}`);
    }
    const prefix = options.prefix === undefined ? '' : str('prefix', options.prefix);
    const dryRun = options.dryRun ?? false;
    if (typeof dryRun !== 'boolean') {
      throw new TypeError(`dryRun must be a boolean, not ${typeof dryRun}`);
    }
    return (await nativeAsync(() => this.#kit.prune(idleSeconds, prefix, dryRun))) as string[];
  }

  /** A hand edit, as a user makes it: what it did, or `null` when the list
   * was already so. The model is told on its next turn. A refused edit
   * throws `TodokitError` (`EDIT`). */
  async edit(conversation: string, action: EditAction): Promise<string | null> {
    return nativeAsync(() => this.#kit.edit(conversation, action));
  }

  /** The notices waiting for the model (hand edits), cleared as taken. */
  async takeNotices(conversation: string): Promise<Notice[]> {
    return (await nativeAsync(() => this.#kit.takeNotices(conversation))) as Notice[];
  }

  /** Rebuilds `conversation` from the host's own transcript (OpenAI chat
   * messages with `tool_calls`, or Anthropic messages with `tool_use`
   * blocks) and stores the list in place of what the store held. */
  async restore(conversation: string, messages: ReadonlyArray<unknown>): Promise<Restored> {
    return (await nativeAsync(() => this.#kit.restore(conversation, messages))) as Restored;
  }

  /** A live feed of `conversation` (see `Subscription`). */
  subscribe(conversation: string, options: { signal?: AbortSignal } = {}): Subscription {
    str('conversation', conversation);
    return new Subscription(native(() => this.#kit.subscribe(conversation)), options.signal);
  }

  /** The turn of `conversation`, driven by the Rust turn driver and
   * stored with the conversation (another kit on the same store carries it
   * on): `endOfTurn` `soft` warns the user when the model stops with work
   * open, `strict` sends it back, `off` does neither; given, it is stored
   * with the conversation, else the stored one holds (`soft` at first).
   * `counters` (from `await policy.counters()`) replaces what the
   * conversation holds. Nothing is stored until the first hook runs. */
  turnPolicy(
    conversation: string,
    options: { endOfTurn?: 'off' | 'soft' | 'strict'; nagAfterRounds?: number; counters?: Record<string, unknown> } = {},
  ): TurnPolicy {
    const counters = options.counters ?? null;
    const policy = native(() =>
      this.#kit.turnPolicy(conversation, options.endOfTurn ?? null, options.nagAfterRounds ?? null, counters),
    );
    return new TurnPolicy(policy, conversation);
  }

  /** Lets go of the store and ends the open subscriptions. */
  close(): void {
    this.#kit.close();
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#kit.closed;
  }
}
