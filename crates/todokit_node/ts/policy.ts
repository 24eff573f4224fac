/** `TurnPolicy`: one conversation's reminders and end-of-turn check. */

import { native, nativeAsync } from './errors.js';
import type { NativePolicy } from './native.js';
import type { Injection, TurnEnd } from './types.js';

/**
 * The Rust `TurnPolicy` of one conversation on one kit: call its hooks at
 * the points of the host's agent loop. The hooks that read the store are
 * async.
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
  onUserPrompt(): void {
    this.#policy.onUserPrompt();
  }

  /** A round of tool calls ran: the nag when due. */
  async onToolResults(round: ReadonlyArray<{ tool: string; isError: boolean }>): Promise<Injection[]> {
    const tools = round.map((call) => call.tool);
    const errors = round.map((call) => call.isError);
    return JSON.parse(await nativeAsync(() => this.#policy.onToolResults(tools, errors))) as Injection[];
  }

  /** Before the next request: the stale-list reminder and the user's hand
   * edits (taken from the store, so each is told once). */
  async beforeRequest(): Promise<Injection[]> {
    return JSON.parse(await nativeAsync(() => this.#policy.beforeRequest())) as Injection[];
  }

  /** What the profile restates before every request (Goose's todo). */
  async context(): Promise<Injection[]> {
    return JSON.parse(await nativeAsync(() => this.#policy.context())) as Injection[];
  }

  /** After the host compacted the conversation: the list to put back. */
  async onCompaction(): Promise<Injection[]> {
    return JSON.parse(await nativeAsync(() => this.#policy.onCompaction())) as Injection[];
  }

  /** The model wants to end its turn with the list as stored. */
  async onTurnEnd(): Promise<TurnEnd> {
    return JSON.parse(await nativeAsync(() => this.#policy.onTurnEnd())) as TurnEnd;
  }

  /** The policy's memory, to keep with the conversation and give back as
   * `counters` to `turnPolicy`. */
  get counters(): Record<string, unknown> {
    return JSON.parse(native(() => this.#policy.counters)) as Record<string, unknown>;
  }
}
