// @ts-check
/**
 * `make bench`: what a call from Node costs over the same call in Rust,
 * measured in one run: the README's one-item `TodoWrite`, arguments as
 * text, details not read, memory store, the median of 15 batches. The Rust
 * figure is `cargo bench -p todokit --bench binding_anchor`'s, run just
 * before (its JSON is the first argument).
 */

import { Todokit } from 'todokit';

const ARGUMENTS = '{"todos": [{"content": "Run the tests", "status": "in_progress", "activeForm": "Running the tests"}]}';
const BATCHES = 15;

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
