// An MCP client built on the official TypeScript SDK
// (@modelcontextprotocol/client), for the Rust tests.
//
// Usage: node mcp_client.mjs TODOKIT STORE legacy|modern
//        node mcp_client.mjs http://HOST:PORT/mcp[/PROFILE] HEADERS legacy|modern
//
// It starts `TODOKIT --store STORE mcp` over standard input and output, or
// connects to the URL over Streamable HTTP sending HEADERS (a JSON object:
// `Authorization`, `Todokit-Conversation`, ...) with every request, in
// the protocol era asked for: `legacy` opens the session with `initialize`
// (2025-11-25) and follows resources with resources/subscribe; `modern`
// pins 2026-07-28 and follows them with subscriptions/listen. Then it reads
// one command per line on its own standard input:
//   {"do":"list"}              -> {"listed": [URI...], "pages": N}
//   {"do":"read","uri":U}      -> {"read": CONTENTS}
//   {"do":"follow","uris":[U...]}  -> {"following": [U...], "honored": FILTER}
//   {"do":"unfollow","uris":[U...]} -> {"unfollowed": [U...]}
//   {"do":"tools"}             -> {"tools": [TOOL...]}
//   {"do":"call","name":N,"arguments":A,"meta":M} -> {"called": RESULT}
//   {"do":"session"}           -> {"session": ID or null}
//   {"do":"connect","url":U,"headers":H} -> {"connected": NAME, "era": ERA}
//     (closes this client and connects a new one to another URL, so one
//     node process serves a test that visits many endpoints)
// (`legacy` subscribes to each URI in turn and stops at the first refusal;
// `modern` opens one listen for them all, and `unfollow` closes the listen
// opened with the same URIs.)
// Every notification about resources is printed the moment it arrives:
// {"updated": URI} or {"listChanged": true}. A failed command prints
// {"failed": MESSAGE, "code": CODE}.
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createInterface } from "node:readline";

const [todokit, store, era] = process.argv.slice(2);
const say = (message) => process.stdout.write(JSON.stringify(message) + "\n");

const options = era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {};

/** A new client, its notifications printed as they come. */
function newClient() {
  const made = new Client({ name: "todokit-test-mcp-client", version: "1.0.0" }, options);
  made.setNotificationHandler("notifications/resources/updated", (notification) => {
    say({ updated: notification.params.uri });
  });
  made.setNotificationHandler("notifications/resources/list_changed", () => {
    say({ listChanged: true });
  });
  return made;
}

/** The transport to `target` (a URL, sending `headers`, or a todokit binary on `store`). */
function transportTo(target, headers) {
  return target.startsWith("http")
    ? new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers } })
    : new StdioClientTransport({ command: target, args: ["--store", store, "mcp"], stderr: "inherit" });
}

let client = newClient();
let transport = transportTo(todokit, todokit.startsWith("http") ? JSON.parse(store) : {});
const listens = new Map();

async function run(command) {
  if (command.do === "list") {
    const listed = [];
    let cursor;
    let pages = 0;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      pages += 1;
      listed.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { listed, pages };
  }
  if (command.do === "read") {
    const read = await client.readResource({ uri: command.uri });
    return { read: read.contents };
  }
  if (command.do === "tools") {
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { tools };
  }
  if (command.do === "call") {
    const params = { name: command.name, arguments: command.arguments ?? {} };
    if (command.meta !== undefined) params._meta = command.meta;
    return { called: await client.callTool(params) };
  }
  if (command.do === "connect") {
    await client.close();
    listens.clear();
    client = newClient();
    transport = transportTo(command.url, command.headers ?? {});
    await client.connect(transport);
    return { connected: client.getServerVersion()?.name ?? null, era };
  }
  if (command.do === "session") {
    return { session: transport.sessionId ?? null };
  }
  const key = JSON.stringify(command.uris);
  if (command.do === "follow") {
    if (era === "modern") {
      const subscription = await client.listen({ resourceSubscriptions: command.uris, resourcesListChanged: true });
      listens.set(key, subscription);
      return { following: command.uris, honored: subscription.honoredFilter };
    }
    for (const uri of command.uris) {
      await client.subscribeResource({ uri });
    }
    return { following: command.uris, honored: null };
  }
  if (command.do === "unfollow") {
    if (era === "modern") {
      await listens.get(key)?.close();
      listens.delete(key);
    } else {
      for (const uri of command.uris) {
        await client.unsubscribeResource({ uri });
      }
    }
    return { unfollowed: command.uris };
  }
  return { failed: `unknown command ${JSON.stringify(command)}`, code: null };
}

try {
  await client.connect(transport);
  say({ connected: client.getServerVersion()?.name ?? null, era });
  for await (const line of createInterface({ input: process.stdin })) {
    try {
      say(await run(JSON.parse(line)));
    } catch (error) {
      say({ failed: String(error?.message ?? error), code: error?.code ?? null });
    }
  }
} catch (error) {
  say({ error: String(error?.stack ?? error) });
  process.exitCode = 1;
} finally {
  await client.close();
}
