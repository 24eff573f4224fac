/**
 * A call's answer as the host reads it: the `ToolResult` every method
 * returns (and a round's error carries for the calls it answered).
 */

import type { ToolResult } from './types.js';

/** A call's answer as the native module gives it (its `CallAnswer`), or as
 * a round's error carries it. */
export interface Answer {
  readonly content: string;
  readonly isError: boolean;
  details(): unknown;
}

/** A `ToolResult` over the native answer, its details built (by the
 * native module) when first read. */
export class Result implements ToolResult {
  readonly content: string;
  readonly isError: boolean;
  #answer: Answer | undefined;
  #details: unknown = undefined;

  constructor(answer: Answer) {
    this.content = answer.content;
    this.isError = answer.isError;
    this.#answer = answer;
  }

  get details(): unknown {
    if (this.#answer !== undefined) {
      this.#details = this.#answer.details();
      this.#answer = undefined;
    }
    return this.#details;
  }

  toJSON(): { content: string; isError: boolean; details: unknown } {
    return { content: this.content, isError: this.isError, details: this.details };
  }
}
