/**
 * `todokit/ai`: a profile's tools and turn for the Vercel AI SDK (`ai` 7;
 * its `generateText`, `streamText` and `ToolLoopAgent` take them unchanged,
 * and so does Mastra). `docs/bindings.md` and the README show them wired.
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
import type { RoundCall, TurnPolicy } from './policy.js';

/** What a todokit tool gives the AI SDK: the model's text and whether it
 * is a refusal (`toModelOutput` sends it as `text` or `error-text`). */
export interface TodokitToolOutput {
  readonly content: string;
  readonly isError: boolean;
}

/**
 * The profile's tools as an AI SDK `ToolSet` of `dynamicTool`s with the
 * profile's exact JSON Schemas. Every input passes the SDK's own check, so
 * a bad payload gets the profile's refusal (as `error-text`). A
 * conversation's calls run in the order the SDK starts them (it starts a
 * step's calls together), so a list-replacing call is never overtaken.
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
      inputSchema: jsonSchema(definition['schema'] as Parameters<typeof jsonSchema>[0], {
        validate: (value) => ({ success: true, value }),
      }),
      execute: (input: unknown): Promise<TodokitToolOutput> => {
        const run = queue.then(async () => {
          const { content, isError } = await kit.call(conversation, name, input ?? {});
          return { content, isError };
        });
        queue = run.catch(() => undefined); // the next call waits, failed or not
        return run;
      },
      toModelOutput: ({ output }) => {
        const { content, isError } = output as TodokitToolOutput;
        return { type: isError ? 'error-text' : 'text', value: content };
      },
    });
  }
  return tools;
}

/** A step's tool calls, each failed when a todokit tool refused or any tool erred. */
function round(step: StepResult<ToolSet>, names: ReadonlySet<string>): RoundCall[] {
  return step.content.flatMap((part): RoundCall[] => {
    if (part.type === 'tool-error') return [{ tool: part.toolName, isError: true }];
    if (part.type !== 'tool-result') return [];
    const output = part.output as Partial<TodokitToolOutput> | undefined;
    return [{ tool: part.toolName, isError: names.has(part.toolName) && output?.isError === true }];
  });
}

/**
 * A `prepareStep` that puts the turn's reminders into the next request as
 * user messages, that request only (the next step takes them out again).
 * The first step of a generation counts as a new user prompt. `next`, if
 * given, runs first; the reminders go after the messages it returns.
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
    const injections = await policy.beforeRequest(previous && round(previous as StepResult<ToolSet>, names));
    const base = earlier?.messages ?? options.messages;
    const kept = base.filter((message) => !ours.has(message));
    if (injections.length === 0 && kept.length === base.length) {
      return earlier;
    }
    const added = injections.map(({ text }): ModelMessage => {
      const message: ModelMessage = { role: 'user', content: [{ type: 'text', text }] };
      ours.add(message);
      return message;
    });
    return { ...earlier, messages: [...kept, ...added] };
  };
}

/** Options to spread into one call of `generateText` or `streamText`. */
export interface TodokitEndOfTurn<TOOLS extends ToolSet = ToolSet> {
  /** The steering the reminder goes through (one per call, as the SDK wants). */
  readonly experimental_steering: Steering;
  /** Checks the list when a step ends without a tool call. */
  readonly onStepEnd: (step: StepResult<TOOLS>) => Promise<void>;
}

/**
 * The end-of-turn check, run when a step ends without a tool call (the SDK
 * then ends its loop without consulting `stopWhen`): `strict` with work
 * open steers the reminder to the model and the loop goes on; `soft` hands
 * the warning to `onWarning`. One per generation; `onStepEnd` chains the host's.
 */
export function todokitEndOfTurn<TOOLS extends ToolSet = ToolSet>(
  policy: TurnPolicy,
  options: { onWarning?: (text: string) => void; onStepEnd?: (step: StepResult<TOOLS>) => unknown } = {},
): TodokitEndOfTurn<TOOLS> {
  const steering = createSteering();
  const onStepEnd = async (step: StepResult<TOOLS>): Promise<void> => {
    await options.onStepEnd?.(step);
    if (step.toolCalls.length > 0) return;
    const end = await policy.onTurnEnd();
    if (end.action === 'continue' && end.injection !== null) {
      // Not awaited: the step it goes with starts only after this returns.
      void steering.steer(end.injection.text);
    } else if (end.action === 'warn' && end.text !== null) {
      options.onWarning?.(end.text);
    }
  };
  return { experimental_steering: steering, onStepEnd };
}
