// @ts-check
/**
 * `make bench`: what a call from Node costs over the same call in Rust,
 * measured in one run: the README's one-item `TodoWrite`, arguments as
 * text, details not read, memory store, the median of 15 batches. The Rust
 * figure is `cargo bench -p todokit --bench binding_anchor`'s, run just
 * before (its JSON is the first argument).
 *
 * Then `todokit/langchain` with `deepagents-js` against LangChain.js's own
 * `todoListMiddleware`, both through `createAgent` with the same scripted
 * model (LangChain's `fakeModel()`) making 10 `write_todos` calls: the
 * median of 15 runs each, interleaved, on the memory store and on the file
 * store.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { AIMessage, HumanMessage, createAgent, fakeModel, todoListMiddleware } from 'langchain';
import { Todokit } from 'todokit';
import { todokitMiddleware } from 'todokit/langchain';

const ARGUMENTS = '{"todos": [{"content": "Run the tests", "status": "in_progress", "activeForm": "Running the tests"}]}';
const BATCHES = 15;
const RUNS = 15;

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** @param {number} calls @param {() => Promise<void> | void} once */
async function perCall(calls, once) {
  const batches = [];
  for (let batch = 0; batch <= BATCHES; batch += 1) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i += 1) {
      await once();
    }
    if (batch > 0) batches.push(Number(process.hrtime.bigint() - started) / calls);
  }
  return median(batches);
}

const anchor = JSON.parse(process.argv[2] ?? '{}').rust_call_ns;
if (typeof anchor !== 'number') throw new Error('give binding_anchor\'s JSON as the first argument');
const kit = new Todokit({ profile: 'claude-code', memory: true });
const sync = await perCall(2000, () => {
  kit.callSync('bench', 'TodoWrite', ARGUMENTS);
});
const awaited = await perCall(500, async () => {
  await kit.call('bench', 'TodoWrite', ARGUMENTS);
});
const us = (/** @type {number} */ ns) => (ns / 1000).toFixed(2);
console.log('npm package (todokit), one run:');
console.log(`  callSync, README's one-item TodoWrite, memory store: Rust ${us(anchor)} µs, Node ${us(sync)} µs: +${us(sync - anchor)} µs per call (goal: at most +15 µs)`);
console.log(`  await call, the same:                                 Rust ${us(anchor)} µs, Node ${us(awaited)} µs: +${us(awaited - anchor)} µs per call (goal: at most +40 µs)`);
kit.close();

/** Ten `write_todos` calls moving a five-item plan along, then the answer. */
function scripted() {
  let model = fakeModel();
  for (let step = 0; step < 10; step += 1) {
    const todos = Array.from({ length: 5 }, (_, i) => ({
      content: `Step ${i + 1}`,
      status: i < Math.floor(step / 2) ? 'completed' : i === Math.floor(step / 2) ? 'in_progress' : 'pending',
    }));
    model = model.respondWithTools([{ name: 'write_todos', args: { todos }, id: `call-${step}` }]);
  }
  return model.respond(new AIMessage('All five steps are done.'));
}

let thread = 0;
/** @param {() => any} middleware */
async function agentRunMs(middleware) {
  const agent = createAgent({ model: scripted(), middleware: [middleware()] });
  const started = process.hrtime.bigint();
  const result = await agent.invoke({ messages: [new HumanMessage('Do the five steps.')] }, { configurable: { thread_id: `run-${(thread += 1)}` }, recursionLimit: 100 });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.messages.at(-1)?.content !== 'All five steps are done.') throw new Error('the scripted run did not finish');
  return elapsed;
}

/** @param {Todokit} kit */
async function middlewareRatio(kit) {
  for (let warm = 0; warm < 3; warm += 1) {
    // Warm-up: the first runs compile both paths.
    await agentRunMs(() => todoListMiddleware());
    await agentRunMs(() => todokitMiddleware(kit));
  }
  const ours = [];
  const theirs = [];
  for (let run = 0; run < RUNS; run += 1) {
    theirs.push(await agentRunMs(() => todoListMiddleware()));
    ours.push(await agentRunMs(() => todokitMiddleware(kit)));
  }
  const mine = median(ours);
  const langchain = median(theirs);
  return { mine, langchain, ratio: mine / langchain };
}

const memory = new Todokit({ profile: 'deepagents-js', memory: true });
const inMemory = await middlewareRatio(memory);
memory.close();
console.log(`  createAgent, 10 write_todos calls, memory store: todoListMiddleware ${inMemory.langchain.toFixed(1)} ms, todokitMiddleware ${inMemory.mine.toFixed(1)} ms: x${inMemory.ratio.toFixed(3)} (goal: at most x1.05)`);
const folder = mkdtempSync(join(tmpdir(), 'todokit-bench-'));
const files = new Todokit({ profile: 'deepagents-js', storeDir: folder });
const onFiles = await middlewareRatio(files);
files.close();
rmSync(folder, { recursive: true, force: true });
console.log(`  createAgent, 10 write_todos calls, file store:   todoListMiddleware ${onFiles.langchain.toFixed(1)} ms, todokitMiddleware ${onFiles.mine.toFixed(1)} ms: x${onFiles.ratio.toFixed(3)}`);
