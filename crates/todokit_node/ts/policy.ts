/** `TurnPolicy`: one conversation's turn, driven by the Rust turn driver. */

import { nativeAsync } from './errors.js';
import type { NativePolicy } from './native.js';
import type { Injection, TurnEnd } from './types.js';

/** One call of a round: the tool, whether it failed, and the host's id of
 * the call where it has one (a call handed over twice counts once). */
export interface RoundCall {
  readonly tool: string;
  readonly isError: boolean;
  readonly id?: string | undefined;
}

function columns(round: ReadonlyArray<RoundCall>): [string[], boolean[], Array<string | null>] {
  return [round.map((call) => call.tool), round.map((call) => call.isError), round.map((call) => call.id ?? null)];
}

/**
 * One conversation's reminders and end-of-turn check, kept with the
 * conversation in the store by the Rust turn driver, so another kit on the
 * same store (a second process, a restart) carries on the same turn. Call
 * its hooks at the points of the host's agent loop; each reads and writes
 * the store.
 */
export class TurnPolicy {
  readonly #policy: NativePolicy;
  /** The conversation the policy follows. */
  readonly conversation: string;

  /** @internal */
  constructor(policy: NativePolicy, conversation: string) {
    this.#policy = policy;
    this.conversation = conversation;
  }

  /** The user sent a new prompt: the end-of-turn budget starts over. */
  async onUserPrompt(): Promise<void> {
    await nativeAsync(() => this.#policy.onUserPrompt());
  }

  /** A round of tool calls ran: what it calls for (the nag when due) waits
   * for `beforeRequest`. */
  async onToolResults(round: ReadonlyArray<RoundCall>): Promise<void> {
    const [tools, errors, ids] = columns(round);
    await nativeAsync(() => this.#policy.onToolResults(tools, errors, ids));
  }

  /** Before the next request: what waits (the nag, a reminder to go on),
   * what `round` (the one just run, if not handed to `onToolResults`)
   * calls for, the stale-list reminder, the user's hand edits (each told
   * once) and what the profile restates before every request. */
  async beforeRequest(round?: ReadonlyArray<RoundCall>): Promise<Injection[]> {
    const [tools, errors, ids] = round === undefined ? [null, null, null] : columns(round);
    return (await nativeAsync(() => this.#policy.beforeRequest(tools, errors, ids))) as Injection[];
  }

  /** After the host compacted the conversation: the list to put back. */
  async onCompaction(): Promise<Injection[]> {
    return (await nativeAsync(() => this.#policy.onCompaction())) as Injection[];
  }

  /** The model wants to end its turn with the list as stored. With
   * `carry`, a `continue`'s reminder waits for the next `beforeRequest`;
   * without, the host delivers `injection` itself. */
  async onTurnEnd(options: { carry?: boolean } = {}): Promise<TurnEnd> {
    return (await nativeAsync(() => this.#policy.onTurnEnd(options.carry ?? false))) as TurnEnd;
  }

  /** The counters as the conversation holds them (`counters` of
   * `turnPolicy` takes them back). */
  async counters(): Promise<Record<string, unknown>> {
    return (await nativeAsync(() => this.#policy.counters())) as Record<string, unknown>;
  }
}
