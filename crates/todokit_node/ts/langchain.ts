/**
 * `todokit/langchain`: a LangChain.js 1.x agent middleware with a todokit
 * profile; `todokitMiddleware(kit)` takes the place of `todoListMiddleware()`
 * in `createAgent({ middleware: [...] })`. The model gets the profile's tools
 * and system prompt; a model turn's todo calls run as one `callRound` in
 * `afterModel` (so `deepagents-js` refuses two `write_todos` in its words),
 * their `ToolMessage`s the answers; the turn's reminders go into the model
 * request only; at the end of a turn `endOfTurn: 'strict'` sends the model
 * back, `'soft'` leaves the warning in the state key `todokitWarning`. The
 * conversation is the run's `thread_id`, else `conversation`.
 *
 * Longer than the other adapters by what LangChain's graph needs besides
 * the turn: the `todos` state key, which mirrors the stored list where
 * `todoListMiddleware`'s readers look (`mirror`, `answer`), the reminders
 * placed into the request's messages (`withReminders`), and the jumps
 * LangChain.js's router needs (see `afterModel` and `afterAgent`).
 */

import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { AIMessage, HumanMessage, createMiddleware } from 'langchain';
import { z } from 'zod';

import { TodokitError } from './errors.js';
import type { Todokit } from './index.js';
import type { TurnPolicy } from './policy.js';
import type { Injection, State, ToolResult, TurnEnd } from './types.js';

/** Options of `todokitMiddleware`. */
export interface TodokitMiddlewareOptions {
  /** The conversation when the run has no `thread_id`. */
  conversation?: string;
  /** What to do when the model stops with work open (`soft` by default). */
  endOfTurn?: 'off' | 'soft' | 'strict';
  /** Rounds without a todo call before the nag (the profile's by default). */
  nagAfterRounds?: number;
}

/** An item of the `todos` state key. */
export interface MirroredTodo {
  content: string;
  status: string;
}

/** The stored list in `todoListMiddleware`'s shape: every item of every
 * phase, `content` and `status`. */
export function mirror(state: State): MirroredTodo[] {
  return state.phases.flatMap((phase) => phase.tasks.map((task) => ({ content: task.content, status: task.status })));
}

type ToolCall = { name: string; args: unknown; id?: string | undefined };

/**
 * The profile of `kit` as a LangChain.js agent middleware (see the module's
 * documentation).
 */
export function todokitMiddleware(kit: Todokit, options: TodokitMiddlewareOptions = {}) {
  const endOfTurn = options.endOfTurn ?? 'soft';
  if (!['off', 'soft', 'strict'].includes(endOfTurn)) {
    throw new TodokitError('USAGE', `endOfTurn must be one of off, soft, strict; got ${JSON.stringify(endOfTurn)}`);
  }
  const names = new Set(kit.profile.tools.map((t) => t.name));
  const policyOptions: Parameters<Todokit['turnPolicy']>[1] = { endOfTurn };
  if (options.nagAfterRounds !== undefined) policyOptions.nagAfterRounds = options.nagAfterRounds;

  const conversationOf = (runtime: { configurable?: { thread_id?: unknown } } | undefined): string => {
    const thread = runtime?.configurable?.thread_id;
    if (thread !== undefined && thread !== null) return String(thread);
    if (options.conversation !== undefined) return options.conversation;
    throw new TodokitError(
      'USAGE',
      'todokitMiddleware needs a conversation: run the agent with { configurable: { thread_id } } or give conversation',
    );
  };

  const policyOf = (conversation: string): TurnPolicy => kit.turnPolicy(conversation, policyOptions);

  const tools: StructuredToolInterface[] = kit.definitions('json-schema').map((definition) => {
    const name = definition['name'] as string;
    // Reached only when the tools node runs a call `afterModel` did not
    // answer (another middleware's jump, say).
    return tool(
      async (input: unknown, config: { toolCall?: { id?: string }; configurable?: { thread_id?: unknown } }) => {
        const result = await kit.call(conversationOf(config), name, input ?? {});
        return answer([{ name, args: input, id: config.toolCall?.id }], [result])[0];
      },
      { name, description: definition['description'] as string, schema: definition['schema'] as Record<string, unknown> },
    ) as unknown as StructuredToolInterface;
  });

  const withReminders = (messages: BaseMessage[], injections: Injection[]): BaseMessage[] => {
    const out = [...messages];
    for (const injection of injections) {
      const last = out[out.length - 1];
      if (injection.placement === 'after_tool_results' && last && ToolMessage.isInstance(last) && typeof last.content === 'string') {
        const { tool_call_id, name, status, id } = last;
        out[out.length - 1] = new ToolMessage({ content: `${last.content}\n\n${injection.text}`, tool_call_id, name, status, id });
      } else {
        out.push(new HumanMessage(injection.text));
      }
    }
    return out;
  };

  const answer = (calls: ToolCall[], results: ToolResult[]): ToolMessage[] =>
    calls.map((call, i) => {
      const status = results[i]?.isError ? 'error' : 'success';
      return new ToolMessage({ content: results[i]?.content ?? '', tool_call_id: call.id ?? '', name: call.name, status });
    });

  const turnEnd = (end: TurnEnd) => {
    // A reminder to go on waits in the turn for the next model request.
    if (end.action === 'continue' && end.injection !== null) {
      return { jumpTo: 'model' as const, todokitWarning: null };
    }
    return { todokitWarning: end.action === 'warn' ? end.text : null };
  };

  return createMiddleware({
    name: `todokit[${kit.profile.name}]`,
    stateSchema: z.object({
      todos: z.array(z.object({ content: z.string(), status: z.string() })).default([]),
      todokitWarning: z.string().nullable().default(null),
    }),
    tools,
    beforeAgent: async (_state, runtime) => {
      // A new user prompt; the stored list is mirrored.
      const conversation = conversationOf(runtime);
      await policyOf(conversation).onUserPrompt();
      return { todos: mirror(await kit.state(conversation)), todokitWarning: null };
    },
    wrapModelCall: async (request, handler) => {
      const injections = await policyOf(conversationOf(request.runtime)).beforeRequest();
      return handler({
        ...request,
        systemMessage: request.systemMessage.concat(`\n\n${kit.profile.systemPrompt}`),
        messages: withReminders(request.messages, injections),
      });
    },
    afterModel: {
      canJumpTo: ['model'],
      hook: async (state, runtime) => {
        const last = state.messages[state.messages.length - 1];
        const calls: ToolCall[] = last && AIMessage.isInstance(last) ? (last.tool_calls ?? []) : [];
        if (calls.length === 0) return undefined;
        const conversation = conversationOf(runtime);
        const ours = calls.filter((call) => names.has(call.name));
        const round = ours.map((call) => ({ tool: call.name, arguments: call.args ?? {} }));
        const results = ours.length === 0 ? [] : await kit.callRound(conversation, round);
        const refused = new Map(ours.map((call, i) => [call.id, results[i]?.isError === true]));
        await policyOf(conversation).onToolResults(
          calls.map((call) => ({ tool: call.name, isError: refused.get(call.id) ?? false })),
        );
        if (ours.length === 0) return undefined;
        const update = { messages: answer(ours, results), todos: mirror(await kit.state(conversation)) };
        // LangChain.js's router ends the run when the last message is a
        // tool message; with every call answered, the model is next.
        return ours.length === calls.length ? { ...update, jumpTo: 'model' as const } : update;
      },
    },
    // LangChain.js's router ends the run after a model turn without tool
    // calls whatever `afterModel` asks, so the end of the turn is checked
    // here, where a jump back to the model is honoured.
    afterAgent: {
      canJumpTo: ['model'],
      hook: async (state, runtime) => {
        const last = state.messages[state.messages.length - 1];
        if (last === undefined || !AIMessage.isInstance(last) || (last.tool_calls ?? []).length > 0) {
          return undefined;
        }
        return turnEnd(await policyOf(conversationOf(runtime)).onTurnEnd({ carry: true }));
      },
    },
  });
}
