// oh-my-pi's `todo` as its agent sends and runs it, under Bun (the
// package is TypeScript for Bun): the tool's parameters through pi-ai's
// toolWireSchema (what goes to a provider), and the calls read from stdin
// (a JSON list of arguments) made in order through the tool's own execute,
// with the raw arguments (the tool sets lenientArgValidation, so the agent
// hands it arguments its schema refused). The session holds the phases in
// memory, as a session without a file does. Run from the folder where
// `extract.py` installed the package.
import { toolWireSchema } from "@oh-my-pi/pi-ai/utils/schema/wire";
import { TodoTool } from "./node_modules/@oh-my-pi/pi-coding-agent/src/tools/todo.ts";

let phases: unknown[] = [];
const session = {
  getTodoPhases: () => phases,
  setTodoPhases: (next: unknown[]) => {
    phases = next;
  },
  getSessionFile: () => undefined,
};
const tool = new TodoTool(session as never);
const answers: string[] = [];
for (const args of JSON.parse(await Bun.stdin.text())) {
  const result = await tool.execute("call", args as never);
  answers.push(result.content.map((part: { text?: string }) => part.text ?? "").join(""));
}
process.stdout.write(JSON.stringify({ name: tool.name, parameters: toolWireSchema(tool as never), answers }));
