/**
 * A call's answer as the host reads it: the `ToolResult` every method
 * returns (and a round's error carries for the calls it answered).
 */

import type { CallAnswer } from './native.js';
import type { ToolResult } from './types.js';

/** A `ToolResult` over the native answer, its details parsed when first read. */
export class Result implements ToolResult {
  readonly content: string;
  readonly isError: boolean;
  #text: string;
  #details: unknown = undefined;
  #parsed = false;

  constructor(answer: CallAnswer) {
    this.content = answer.content;
    this.isError = answer.isError;
    this.#text = answer.details;
  }

  get details(): unknown {
    if (!this.#parsed) {
      this.#details = JSON.parse(this.#text);
      this.#parsed = true;
      this.#text = '';
    }
    return this.#details;
  }

  toJSON(): { content: string; isError: boolean; details: unknown } {
    return { content: this.content, isError: this.isError, details: this.details };
  }
}
