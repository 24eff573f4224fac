// LangChain.js's write_todos as a host built on it sends it: the tool of
// todoListMiddleware(), its schema through @langchain/core's
// convertToOpenAITool, and the answers of the calls read from stdin (a JSON
// list of arguments), made in order. Run from the folder where
// `extract.py` installed langchain.
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { todoListMiddleware } from "langchain";

let text = "";
for await (const chunk of process.stdin) text += chunk;
const [tool] = todoListMiddleware().tools;
const answers = [];
for (const [index, args] of JSON.parse(text).entries()) {
  const call = { id: `call_${index + 1}`, name: tool.name, args, type: "tool_call" };
  const command = await tool.invoke(call);
  answers.push(command.update.messages[0].content);
}
const { parameters } = convertToOpenAITool(tool).function;
process.stdout.write(JSON.stringify({ name: tool.name, parameters, answers }));
