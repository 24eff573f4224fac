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

/** A task's status, as stored. */
export type Status = 'pending' | 'in_progress' | 'blocked' | 'completed' | 'abandoned';

/** One task of a stored list (keys a list does not use are absent; a
 * profile's own extra keys may be present too, in camelCase). */
export interface Task {
  readonly content: string;
  readonly status: Status;
  readonly id?: string;
  readonly activeForm?: string;
  readonly priority?: 'high' | 'medium' | 'low';
  readonly notes?: readonly string[];
  readonly description?: string;
  readonly owner?: string;
  /** The model's own object, its keys as it wrote them. */
  readonly metadata?: Record<string, unknown>;
  readonly blockedBy?: readonly string[];
  readonly parent?: string;
  readonly kind?: string;
  readonly blockedReason?: string;
  /** Milliseconds since the epoch. */
  readonly createdAt?: number;
  /** Milliseconds since the epoch. */
  readonly statusChangedAt?: number;
}

/** A named group of tasks (one unnamed phase for a flat list). */
export interface Phase {
  readonly name: string;
  readonly tasks: readonly Task[];
}

/** A notice as a stored list holds it (see `Notice`). */
export interface StoredNotice {
  readonly kind: string;
  readonly at: number;
  readonly text: string;
  readonly action?: string;
}

/** A stored list: `todokit show --format json`, its keys in camelCase. */
export interface State {
  readonly version: number;
  readonly phases: readonly Phase[];
  readonly nextId?: number;
  readonly notices?: readonly StoredNotice[];
  readonly profile?: string;
  readonly explanation?: string;
  readonly document?: string;
  readonly turn?: Record<string, unknown>;
}

/** How many tasks of a list stand at each status. */
export interface StatusCounts {
  readonly pending: number;
  readonly inProgress: number;
  readonly blocked: number;
  readonly completed: number;
  readonly abandoned: number;
}

/** One conversation of the store: an item of `todokit conversations
 * --format json`, its keys in camelCase. */
export interface ConversationSummary {
  readonly id: string;
  /** Milliseconds since the epoch, `null` when the store cannot tell. */
  readonly changedAt: number | null;
  readonly version: number;
  readonly counts: StatusCounts;
  readonly inProgress: string | null;
  readonly profile: string | null;
  readonly problem: string | null;
}

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
