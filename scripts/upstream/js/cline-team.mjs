// Cline's team_task as its CLI's agent teams build it: @cline/core's
// createAgentTeamsTools() for the lead of a new AgentTeamsRuntime, the
// tool's input schema as Cline sends it (zod's JSON Schema), and the
// answers of the calls read from stdin (a JSON list of arguments), made in
// order on one board. An answer is what Cline's agent loop sends the
// model: the result as JSON text, or a thrown error as {"error": message}.
// Run from the folder where `extract.py` installed @cline/core.
import { AgentTeamsRuntime, createAgentTeamsTools } from "@cline/core";

let text = "";
for await (const chunk of process.stdin) text += chunk;
const runtime = new AgentTeamsRuntime({ teamName: "upstream" });
const tools = createAgentTeamsTools({
  runtime,
  requesterId: "lead",
  teammateConfigProvider: { getRuntimeConfig: () => ({ cwd: process.cwd() }) },
  includeSpawnTool: false,
});
const tool = tools.find((candidate) => candidate.name === "team_task");
const answers = [];
for (const args of JSON.parse(text)) {
  try {
    const output = await tool.execute(args, {});
    answers.push(typeof output === "string" ? output : JSON.stringify(output));
  } catch (error) {
    answers.push(JSON.stringify({ error: error.message }));
  }
}
process.stdout.write(
  JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.inputSchema, answers }),
);
