// One object literal cut from a package's bundle, evaluated in a context
// of its own (no require, no process, no timers) and printed as JSON; with
// `calls`, the literal's `method` is run on each and its answers printed
// too. Read from stdin: {"literal": "...", "method": "run", "calls": [...]}.
import vm from "node:vm";

let text = "";
for await (const chunk of process.stdin) text += chunk;
const request = JSON.parse(text);
const value = vm.runInNewContext(`(${request.literal})`, {}, { timeout: 1000 });
const answers = [];
for (const args of request.calls ?? []) {
  answers.push(await value[request.method](args));
}
process.stdout.write(JSON.stringify({ value, answers }));
