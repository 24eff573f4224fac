/**
 * `todokit/claude-agent-sdk`: a profile's tools for the Claude Agent SDK as
 * an in-process MCP server with the profile's exact JSON Schemas (the SDK's
 * own `tool()` takes only Zod shapes), and hooks for the turn. Claude Code
 * names the server's tools `mcp__<server>__<tool>`; disallow its own
 * `TodoWrite` beside them. `docs/bindings.md` shows them wired.
 */

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';

import { TodokitError } from './errors.js';
import { VERSION, type Todokit } from './index.js';
import type { TurnPolicy } from './policy.js';
import type { Mode } from './types.js';

/** The `mcpServers` entry: the Agent SDK's `McpSdkServerConfigWithInstance`. */
export interface TodokitMcpServerConfig {
  readonly type: 'sdk';
  readonly name: string;
  readonly instance: McpServer;
}

/** The key of a call's `_meta` that carries the host's mode, as on the
 * command's MCP server. */
const MODE_KEY = 'todokit/mode';

function modeOf(meta: Record<string, unknown> | undefined): Mode {
  const mode = meta?.[MODE_KEY];
  if (mode === undefined || mode === 'default' || mode === 'plan') {
    return mode ?? 'default';
  }
  throw new McpError(ErrorCode.InvalidParams, `_meta["${MODE_KEY}"] must be "default" or "plan", not ${JSON.stringify(mode)}`);
}

/**
 * An MCP server (of `@modelcontextprotocol/sdk`) with the profile's tools on
 * `conversation`, answering as `todokit mcp` does: `tools/list` is `todokit
 * schema --target mcp`; `tools/call` gives the profile's text and `isError`
 * for a refusal (an unknown tool is invalid params, a store failure an
 * internal error). Claude Code hands the model a result's structured content
 * instead of its text, so the details go in as `structuredContent` only with
 * `structuredContent: true` (as `todokit mcp --structured-content`).
 */
export function todokitMcpServer(
  kit: Todokit,
  conversation: string,
  options: { name?: string; structuredContent?: boolean } = {},
): TodokitMcpServerConfig {
  if (typeof conversation !== 'string') {
    throw new TypeError('conversation must be a string');
  }
  const name = options.name ?? 'todokit';
  const tools = kit.definitions('mcp') as unknown as McpTool[];
  const instance = new McpServer(
    { name, version: VERSION },
    { capabilities: { tools: {} }, instructions: kit.profile.systemPrompt },
  );
  // The low-level handlers: the high-level `registerTool` would rebuild the
  // schemas from Zod shapes.
  instance.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  instance.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name: tool, arguments: args, _meta: meta } = request.params;
    const mode = modeOf(meta as Record<string, unknown> | undefined);
    try {
      const result = await kit.call(conversation, tool, args ?? {}, { mode });
      const details = result.details;
      const structured =
        options.structuredContent === true &&
        details !== null &&
        typeof details === 'object' &&
        !Array.isArray(details)
          ? { structuredContent: details as Record<string, unknown> }
          : {};
      return { content: [{ type: 'text', text: result.content }], ...structured, isError: result.isError };
    } catch (error) {
      if (error instanceof TodokitError) {
        const code = error.code === 'UNKNOWN_TOOL' ? ErrorCode.InvalidParams : ErrorCode.InternalError;
        throw new McpError(code, error.message);
      }
      throw error;
    }
  });
  return { type: 'sdk', name, instance };
}

/** What a hook answers Claude Code (a subset of the Agent SDK's
 * `SyncHookJSONOutput`). */
export interface TodokitHookOutput {
  decision?: 'block';
  reason?: string;
  systemMessage?: string;
  hookSpecificOutput?: { hookEventName: 'UserPromptSubmit'; additionalContext: string };
}

/** A hook callback as the Agent SDK calls it. */
export type TodokitHookCallback = (
  input: { hook_event_name: string },
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<TodokitHookOutput>;

/** The `hooks` option: `UserPromptSubmit` and `Stop`. */
export interface TodokitHooks {
  UserPromptSubmit: Array<{ hooks: TodokitHookCallback[] }>;
  Stop: Array<{ hooks: TodokitHookCallback[] }>;
}

/**
 * Hooks that run `policy` in Claude Code's loop: on `UserPromptSubmit` the
 * end-of-turn budget starts over and the reminders due (the stale list,
 * the user's hand edits, the profile's context) go to the model as
 * additional context; on `Stop` the end-of-turn check: `strict` with work
 * open blocks the stop with the reminder as the reason (Claude goes on),
 * `soft` shows the warning to the user as a system message.
 */
export function todokitHooks(policy: TurnPolicy): TodokitHooks {
  const onPrompt: TodokitHookCallback = async () => {
    await policy.onUserPrompt();
    const injections = await policy.beforeRequest();
    const additionalContext = injections.map((injection) => injection.text).join('\n\n');
    return injections.length === 0 ? {} : { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext } };
  };
  const onStop: TodokitHookCallback = async () => {
    const end = await policy.onTurnEnd();
    if (end.action === 'continue' && end.injection !== null) return { decision: 'block', reason: end.injection.text };
    return end.action === 'warn' && end.text !== null ? { systemMessage: end.text } : {};
  };
  return { UserPromptSubmit: [{ hooks: [onPrompt] }], Stop: [{ hooks: [onStop] }] };
}
