// An editor built on the official ACP TypeScript SDK, for the Rust tests.
//
// Usage: node acp_client.mjs AGENT [plan-operations]
//
// It starts AGENT over standard input and output, initializes (declaring
// the unstable plan operations when asked), then reads one command per
// line on its own standard input:
//   {"do":"new"}                  -> {"session": ID}
//   {"do":"prompt","session":ID}  -> {"stopReason": ...}
// Every session/update the agent sends is printed as {"update": PARAMS}
// the moment it arrives, so the test sees what an editor would show.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Readable, Writable } from "node:stream";

const [agentPath, mode] = process.argv.slice(2);
const agent = spawn(agentPath, [], { stdio: ["pipe", "pipe", "inherit"] });
const say = (message) => process.stdout.write(JSON.stringify(message) + "\n");

const stream = acp.ndJsonStream(Writable.toWeb(agent.stdin), Readable.toWeb(agent.stdout));
const editor = acp
  .client({ name: "todokit-test-editor" })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    say({ update: params });
  })
  .onRequest(acp.methods.client.session.requestPermission, () => ({ outcome: { outcome: "cancelled" } }));

try {
  await editor.connectWith(stream, async (context) => {
    const capabilities = mode === "plan-operations" ? { plan: {} } : {};
    const initialized = await context.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: capabilities,
    });
    say({ initialized: initialized.protocolVersion });
    for await (const line of createInterface({ input: process.stdin })) {
      const command = JSON.parse(line);
      if (command.do === "new") {
        const created = await context.request(acp.methods.agent.session.new, { cwd: process.cwd(), mcpServers: [] });
        say({ session: created.sessionId });
      } else if (command.do === "prompt") {
        const answered = await context.request(acp.methods.agent.session.prompt, {
          sessionId: command.session,
          prompt: [{ type: "text", text: "Go on with the next step." }],
        });
        say({ stopReason: answered.stopReason });
      } else {
        say({ error: `unknown command ${line}` });
      }
    }
  });
} catch (error) {
  say({ error: String(error?.stack ?? error) });
  process.exitCode = 1;
} finally {
  agent.kill();
}
