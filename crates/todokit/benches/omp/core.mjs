// Runs oh-my-pi's todo_write core under bun (its runtime) for `make bench`:
// the tool's own `execute` (copy the session's phases, apply the ops,
// write the summary) on the argument text parsed as a host parses it.
// Imports that only build the schema, the prompt or the terminal renderer
// are given inert stand-ins: none of them runs during a call.
//
// Usage: bun core.mjs <package dir> <payload dir>, then one command per
// line on standard input: `text` answers the result text of one call as
// JSON; `measure` answers the median nanoseconds per call over 15 timed
// batches, measured as the Rust benchmark measures its own calls.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";

const [packageDir, payloadDir] = process.argv.slice(2);
if (!packageDir || !payloadDir) {
	console.error("usage: bun core.mjs <package dir> <payload dir>");
	process.exit(2);
}

// Stand-ins for the imports that only build the schema, the prompt or the
// terminal renderer (none of them runs during a call), written beside the
// extracted source where bun's resolver finds them. Each export is inert:
// calling, constructing or reading it gives another inert value, so schema
// builders and chained styles load.
const INERT = `const inert = new Proxy(function () {}, {
	get: (_target, key) => (key === Symbol.toPrimitive ? () => "" : inert),
	apply: () => inert,
	construct: () => inert,
});
`;
const standIns = {
	"node_modules/@oh-my-pi/pi-ai/index.mjs": "export const StringEnum = inert;",
	"node_modules/@oh-my-pi/pi-tui/index.mjs": "export const Text = inert;",
	"node_modules/@oh-my-pi/pi-utils/index.mjs": "export const prompt = { render: (text) => text };",
	"node_modules/@sinclair/typebox/index.mjs": "export const Type = inert;",
	"node_modules/chalk/index.mjs": "export default inert;",
	"src/tui.mjs": "export const renderStatusLine = inert, renderTreeList = inert;",
	"src/tools/render-utils.mjs": "export const PREVIEW_LIMITS = inert;",
};
for (const [path, body] of Object.entries(standIns)) {
	const file = join(packageDir, path);
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, INERT + body + "\n");
	if (path.startsWith("node_modules/")) {
		writeFileSync(join(dirname(file), "package.json"), '{"type":"module","main":"index.mjs"}\n');
	}
}

const { TodoWriteTool, applyOpsToPhases } = await import(join(packageDir, "src/tools/todo-write.ts"));

const init = JSON.parse(readFileSync(join(payloadDir, "w2_init.json"), "utf8"));
const { phases: initPhases, errors } = applyOpsToPhases([], init.ops);
if (errors.length > 0) throw new Error(`the init did not apply: ${errors.join("; ")}`);
const batch = readFileSync(join(payloadDir, "w2_ops_batch.json"), "utf8");

// The session serves the 5 x 10 init on every call (the batch changes the
// list it loads), as the Rust side's fixed store does.
const session = {
	getTodoPhases: () => initPhases,
	setTodoPhases: () => {},
	getSessionFile: () => null,
};
const tool = new TodoWriteTool(session);
const call = async () => (await tool.execute("call", JSON.parse(batch))).content[0].text;

let sink = 0;
async function measure() {
	const warm = Bun.nanoseconds();
	let perBatch = 1;
	while (Bun.nanoseconds() - warm < 50e6) {
		for (let i = 0; i < perBatch; i++) sink += (await call()).length;
		perBatch *= 2;
	}
	const batchSize = Math.max(1, perBatch / 4);
	const samples = [];
	for (let s = 0; s < 15; s++) {
		const start = Bun.nanoseconds();
		for (let i = 0; i < batchSize; i++) sink += (await call()).length;
		samples.push((Bun.nanoseconds() - start) / batchSize);
	}
	samples.sort((a, b) => a - b);
	return samples[7];
}

for await (const line of createInterface({ input: process.stdin })) {
	if (line === "text") console.log(JSON.stringify(await call()));
	else if (line === "measure") console.log(String(await measure()));
	else console.log(JSON.stringify({ error: `unknown command ${line}` }));
}
if (sink < 0) console.log(sink);
