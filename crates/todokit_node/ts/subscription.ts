/** `Subscription`: a live feed of one conversation's list. */

import { native } from './errors.js';
import type { NativeFeed } from './native.js';
import type { State } from './types.js';

/**
 * The list as it stands, then every version committed after it by anyone
 * (this process, the command, another process on the store), each as
 * `state()` gives it. Iterate it with `for await`; it ends on `return()`
 * (leaving the loop), `close()`, the `AbortSignal` given, or the kit's
 * `close()`. Waiting holds no thread and does not keep the event loop
 * alive: the store's watch wakes it through a weak thread-safe function.
 */
export class Subscription implements AsyncIterableIterator<State> {
  readonly #feed: NativeFeed;
  /** Every `next()` waiting: a wake lets them all poll again, and what
   * one of them does not take the others wait on. */
  #waiting: Array<() => void> = [];
  readonly #onAbort: () => void;
  readonly #signal: AbortSignal | undefined;

  /** @internal */
  constructor(feed: NativeFeed, signal?: AbortSignal) {
    this.#feed = feed;
    this.#signal = signal;
    feed.onWake(() => this.#wake());
    this.#onAbort = () => this.close();
    if (signal !== undefined) {
      if (signal.aborted) {
        this.close();
      } else {
        signal.addEventListener('abort', this.#onAbort, { once: true });
      }
    }
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) {
      resolve();
    }
  }

  /** The next state, waiting for one; `done` when the feed ended. */
  async next(): Promise<IteratorResult<State, undefined>> {
    for (;;) {
      const state = native(() => this.#feed.poll()) as State | null;
      if (state !== null) {
        return { value: state, done: false };
      }
      if (this.#feed.closed) {
        return { value: undefined, done: true };
      }
      await new Promise<void>((resolve) => {
        this.#waiting.push(resolve);
      });
    }
  }

  /** Ends the feed (what leaving a `for await` loop calls). */
  async return(): Promise<IteratorResult<State, undefined>> {
    this.close();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Ends the feed; a waiting `next()` finishes with `done`. */
  close(): void {
    this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#feed.close();
    this.#wake();
  }

  /** Whether the feed ended. */
  get closed(): boolean {
    return this.#feed.closed;
  }
}
