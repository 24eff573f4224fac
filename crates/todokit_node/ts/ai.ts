/**
 * `todokit/ai`: a profile's tools and turn policy for the Vercel AI SDK
 * (`ai` 7; its `generateText`, `streamText` and `ToolLoopAgent` take them
 * unchanged, and so does Mastra).
 *
 * ```ts
 * import { generateText, isStepCount } from 'ai';
 * import { Todokit } from 'todokit';
 * import { todokitEndOfTurn, todokitPrepareStep, todokitTools } from 'todokit/ai';
 *
 * const kit = new Todokit({ profile: 'claude-code' });
 * const policy = kit.turnPolicy('c', { endOfTurn: 'strict' });
 * const result = await generateText({
 *   model,
 *   instructions: kit.profile.systemPrompt,
 *   prompt: 'Fix the failing test',
 *   tools: todokitTools(kit, 'c'),
 *   prepareStep: todokitPrepareStep(kit, policy),
 *   stopWhen: isStepCount(20),
 *   ...todokitEndOfTurn(policy),
 * });
 * ```
 */

import {
  dynamicTool,
  experimental_createSteering as createSteering,
  jsonSchema,
  type Experimental_Steering as Steering,
  type ModelMessage,
  type PrepareStepFunction,
  type StepResult,
  type ToolSet,
} from 'ai';

import type { Todokit } from './index.js';
import type { TurnPolicy } from './policy.js';
import type { Injection } from './types.js';

/** What a todokit tool gives the AI SDK: the model's text and whether it
 * is a refusal (`toModelOutput` sends it as `text` or `error-text`). */
export interface TodokitToolOutput {
  readonly content: string;
  readonly isError: boolean;
}

/** Every input passes the SDK's own check: the profile validates (and,
 * where its original does, repairs) the arguments and answers a bad payload
 * in its own words, which a schema check in front of it would replace. */
function passThrough(value: unknown): { success: true; value: unknown } {
  return { success: true, value };
}

/**
 * The profile's tools as an AI SDK `ToolSet`, each a `dynamicTool` with the
 * profile's exact JSON Schema. A call's answer reaches the model as `text`,
 * a refusal as `error-text`, in the profile's words. Calls of one
 * conversation run one after another in the order the SDK starts them (it
 * starts a step's calls together), so a list-replacing tool is never
 * overtaken by the call before it.
 */
export function todokitTools(kit: Todokit, conversation: string): ToolSet {
  if (typeof conversation !== 'string') {
    throw new TypeError('conversation must be a string');
  }
  let queue: Promise<unknown> = Promise.resolve();
  const tools: ToolSet = {};
  for (const definition of kit.definitions('json-schema')) {
    const name = definition['name'] as string;
    tools[name] = dynamicTool({
      description: definition['description'] as string,
      inputSchema: jsonSchema(definition['schema'] as Parameters<typeof jsonSchema>[0], { validate: passThrough }),
      execute: (input: unknown): Promise<TodokitToolOutput> => {
        const run = queue.then(async () => {
          const result = await kit.call(conversation, name, input ?? {});
          return { content: result.content, isError: result.isError };
        });
        // The next call waits for this one, failed or not.
        queue = run.catch(() => undefined);
        return run;
      },
      toModelOutput: ({ output }) => {
        const { content, isError } = output as TodokitToolOutput;
        return isError ? { type: 'error-text', value: content } : { type: 'text', value: content };
      },
    });
  }
  return tools;
}

/** A step's tool calls and whether each failed: a todokit tool's refusal,
 * or any tool's error. */
function round(step: StepResult<ToolSet>, names: ReadonlySet<string>): Array<{ tool: string; isError: boolean }> {
  const calls: Array<{ tool: string; isError: boolean }> = [];
  for (const part of step.content) {
    if (part.type === 'tool-error') {
      calls.push({ tool: part.toolName, isError: true });
    } else if (part.type === 'tool-result') {
      const output = part.output as Partial<TodokitToolOutput> | undefined;
      calls.push({ tool: part.toolName, isError: names.has(part.toolName) && output?.isError === true });
    }
  }
  return calls;
}

/**
 * A `prepareStep` that puts the turn policy's (of `policy.conversation`) reminders (the nag after
 * rounds without a todo call, the stale-list reminder, the user's hand
 * edits, the profile's restated context) into the next request as user
 * messages. They reach that request only: the next step takes them out
 * again, so the history keeps none. The first step of a call to
 * `generateText` counts as a new user prompt.
 *
 * Give `next` to chain another `prepareStep`: it runs first, and the
 * reminders are added to the messages it returns.
 */
export function todokitPrepareStep<TOOLS extends ToolSet = ToolSet>(
  kit: Todokit,
  policy: TurnPolicy,
  next?: PrepareStepFunction<TOOLS>,
): PrepareStepFunction<TOOLS> {
  const names = new Set(kit.profile.tools.map((tool) => tool.name));
  const ours = new WeakSet<object>();
  return async (options) => {
    const earlier = next === undefined ? undefined : await next(options);
    if (options.stepNumber === 0) {
      await policy.onUserPrompt();
    }
    const previous = options.steps[options.steps.length - 1];
    const injections: Injection[] = await policy.beforeRequest(
      previous === undefined ? undefined : round(previous as StepResult<ToolSet>, names),
    );
    const base = earlier?.messages ?? options.messages;
    const kept = base.filter((message) => !ours.has(message));
    if (injections.length === 0 && kept.length === base.length) {
      return earlier;
    }
    const added = injections.map((injection): ModelMessage => {
      const message: ModelMessage = { role: 'user', content: [{ type: 'text', text: injection.text }] };
      ours.add(message);
      return message;
    });
    return { ...earlier, messages: [...kept, ...added] };
  };
}

/** What `todokitEndOfTurn` gives: options to spread into one call of
 * `generateText` or `streamText`. */
export interface TodokitEndOfTurn<TOOLS extends ToolSet = ToolSet> {
  /** The steering the reminder goes through (one per call, as the SDK wants). */
  readonly experimental_steering: Steering;
  /** Checks the list when a step ends without a tool call. */
  readonly onStepEnd: (step: StepResult<TOOLS>) => Promise<void>;
}

/**
 * The end-of-turn check. The AI SDK ends its loop when the model answers
 * without a tool call and consults no `stopWhen` then, so the check runs
 * when such a step ends: with `endOfTurn: 'strict'` and work open, the
 * policy's reminder goes to the model as a user message through the SDK's
 * steering, and the loop goes on (as far as `stopWhen` allows); `soft`
 * hands the warning to `onWarning`. Make a new one for every call of
 * `generateText` (a steering object serves one generation); give
 * `onStepEnd` to chain the host's own.
 */
export function todokitEndOfTurn<TOOLS extends ToolSet = ToolSet>(
  policy: TurnPolicy,
  options: { onWarning?: (text: string) => void; onStepEnd?: (step: StepResult<TOOLS>) => unknown } = {},
): TodokitEndOfTurn<TOOLS> {
  const steering = createSteering();
  return {
    experimental_steering: steering,
    onStepEnd: async (step) => {
      await options.onStepEnd?.(step);
      if (step.toolCalls.length > 0) {
        return;
      }
      const end = await policy.onTurnEnd();
      if (end.action === 'continue' && end.injection !== null) {
        // Delivered with the next step; not awaited, as that step starts
        // only after this callback returns.
        void steering.steer(end.injection.text);
      } else if (end.action === 'warn' && end.text !== null) {
        options.onWarning?.(end.text);
      }
    },
  };
}
