/** The values the package hands a host. */

/** The host's mode: in `plan`, a tool whose original refuses every call
 * there (Codex's `update_plan`) answers that refusal. */
export type Mode = 'default' | 'plan';

/** The targets of `definitions`, as `todokit schema --target`. */
export type Target = 'json-schema' | 'openai' | 'openai-strict' | 'anthropic' | 'mcp';

/** One tool of a profile. */
export interface Tool {
  readonly name: string;
  readonly description: string;
  /** Host-facing facts: `read_only`, `destructive`, `exclusive`, `refused_in` … */
  readonly metadata: Record<string, unknown>;
  readonly commands: Record<string, Record<string, unknown>>;
}

/** A profile: the tools one agent's model was trained on. */
export interface Profile {
  readonly name: string;
  readonly summary: string;
  /** What to add to the system prompt. */
  readonly systemPrompt: string;
  readonly tools: readonly Tool[];
  readonly upstream: Record<string, unknown> | null;
  /** A call the model could make: the tool and its arguments as JSON text. */
  readonly example: { readonly tool: string; readonly arguments: string } | null;
}

/** What a call gives the model. */
export interface ToolResult {
  /** The text the model reads. */
  readonly content: string;
  /** A refusal: nothing was stored. */
  readonly isError: boolean;
  /** The lists before and after, in the profile's shape (parsed when first read). */
  readonly details: unknown;
}

/** A stored list: exactly `todokit show --format json`. */
export type State = {
  version: number;
  phases: Array<{ name: string; tasks: Array<Record<string, unknown> & { content: string; status: string }> }>;
} & Record<string, unknown>;

/** Something the model should be told on its next turn (a hand edit). */
export interface Notice {
  readonly kind: string;
  /** When, in ms since the epoch. */
  readonly at: number;
  readonly text: string;
  readonly action?: string | null;
}

/** Text for the model and where it goes: `after_tool_results` (append it
 * to the message carrying the tool results) or `before_request` (a message
 * of its own before the next request). */
export interface Injection {
  readonly placement: 'after_tool_results' | 'before_request';
  /** Why: `nag`, `stale_list`, `user_edit`, `end_of_turn`, `compaction`, `context`. */
  readonly kind: string;
  readonly text: string;
}

/** What to do when the model wants to end its turn. */
export interface TurnEnd {
  readonly action: 'end' | 'warn' | 'continue';
  /** For `warn`, what to show the user; for `continue`, the reminder. */
  readonly text: string | null;
  /** For `continue`, the reminder to send the model. */
  readonly injection: Injection | null;
}

/** A hand edit, as a user makes it from a terminal or the board. */
export interface EditAction {
  action: 'append' | 'start' | 'done' | 'drop' | 'rm' | 'claim' | 'release';
  name?: string;
  items?: string[];
  phase?: string | null;
  owner?: string | null;
}

/** A conversation rebuilt from a transcript. */
export interface Restored {
  readonly state: State;
  /** The policy's counters as the transcript left them (give them to `turnPolicy`). */
  readonly counters: Record<string, unknown>;
}
