// @ts-check
/**
 * `todokit/ai` through the AI SDK's own `generateText` (ai 7.0.173, from
 * this folder's package-lock.json), the model being the SDK's scripted
 * `MockLanguageModelV4` from `ai/test`.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { generateText, isStepCount, streamText } from 'ai';
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';
import { Todokit } from 'todokit';
import { todokitEndOfTurn, todokitPrepareStep, todokitTools } from 'todokit/ai';

import { cliJson, folder, ONE, textStep, toolStep } from './support.mjs';

/** The texts of a request's user messages.
 * @param {any} call a `doGenerateCalls` entry
 * @returns {string[]} */
function userTexts(call) {
  return call.prompt
    .filter((/** @type {any} */ m) => m.role === 'user')
    .flatMap((/** @type {any} */ m) => m.content.filter((/** @type {any} */ p) => p.type === 'text').map((/** @type {any} */ p) => p.text));
}

/** The tool results a request carries, as the model reads them.
 * @param {any} call
 * @returns {Array<[string, any]>} */
function toolOutputs(call) {
  return call.prompt
    .filter((/** @type {any} */ m) => m.role === 'tool')
    .flatMap((/** @type {any} */ m) => m.content.map((/** @type {any} */ p) => [p.toolCallId, p.output]));
}

const BAD = '{"todos": [{"content": "", "status": "done"}]}';

test('the tools answer in the profile\'s words: text, and a refusal as error-text', async () => {
  const kit = new Todokit({ profile: 'claude-code', memory: true });
  const reference = new Todokit({ profile: 'claude-code', memory: true });
  const model = new MockLanguageModelV4({
    doGenerate: [toolStep([['TodoWrite', ONE]], 'a'), toolStep([['TodoWrite', BAD]], 'b'), textStep('done')],
  });
  const result = await generateText({
    model,
    prompt: 'Run the tests',
    tools: todokitTools(kit, 'c'),
    stopWhen: isStepCount(5),
  });
  assert.equal(result.text, 'done');
  const good = await reference.call('c', 'TodoWrite', ONE);
  const bad = await reference.call('c', 'TodoWrite', BAD);
  assert.equal(bad.isError, true);
  // What the model read back, request by request.
  assert.deepEqual(toolOutputs(model.doGenerateCalls[1]), [['a-0', { type: 'text', value: good.content }]]);
  assert.deepEqual(toolOutputs(model.doGenerateCalls[2]).slice(1), [['b-0', { type: 'error-text', value: bad.content }]]);
  // The definitions the model was offered are the profile's, schema and all.
  const offered = model.doGenerateCalls[0]?.tools ?? [];
  const [definition] = kit.definitions('json-schema');
  assert.deepEqual(
    offered.map((/** @type {any} */ t) => [t.name, /** @type {any} */ (t).description, /** @type {any} */ (t).inputSchema]),
    [[definition?.['name'], definition?.['description'], definition?.['schema']]],
  );
  /** @param {any} state */
  const items = (state) => [state.version, state.phases.flatMap((/** @type {any} */ p) => p.tasks.map((/** @type {any} */ t) => [t.content, t.status]))];
  assert.deepEqual(items(await kit.state('c')), items(await reference.state('c')));
  kit.close();
  reference.close();
});

test('calls of one step run in the order the model made them, on the store the command reads', async () => {
  const store = folder();
  const kit = new Todokit({ profile: 'claude-code', storeDir: store });
  const plans = Array.from({ length: 8 }, (_, i) => ({
    todos: [{ content: `Step ${i}`, status: 'in_progress', activeForm: `Doing step ${i}` }],
  }));
  const model = new MockLanguageModelV4({
    doGenerate: [toolStep(plans.map((plan) => ['TodoWrite', plan])), textStep('ok')],
  });
  await generateText({ model, prompt: 'Go', tools: todokitTools(kit, 'c'), stopWhen: isStepCount(5) });
  const shown = cliJson(store, ['show', '--format', 'json']);
  assert.equal(shown.version, 8);
  assert.equal(shown.phases[0].tasks[0].content, 'Step 7');
  kit.close();
});

test('prepareStep puts the reminders into one request only', async () => {
  const kit = new Todokit({ profile: 'claude-code', memory: true });
  const policy = kit.turnPolicy('c', { nagAfterRounds: 1 });
  const other = { lookup: { description: 'Looks something up', inputSchema: { type: 'object', properties: {} } } };
  const model = new MockLanguageModelV4({
    doGenerate: [
      toolStep([['TodoWrite', ONE]], 'a'),
      toolStep([['lookup', {}]], 'b'),
      toolStep([['TodoWrite', ONE]], 'c'),
      textStep('done'),
    ],
  });
  const { dynamicTool, jsonSchema } = await import('ai');
  const lookup = dynamicTool({
    description: other.lookup.description,
    inputSchema: jsonSchema(/** @type {any} */ (other.lookup.inputSchema)),
    execute: async () => 'found',
  });
  await generateText({
    model,
    prompt: 'Run the tests',
    tools: { ...todokitTools(kit, 'c'), lookup },
    prepareStep: todokitPrepareStep(kit, policy),
    stopWhen: isStepCount(6),
  });
  // The user messages after the prompt, request by request: the round
  // without a todo call earns the nag in the next request; the request
  // after a todo call carries none (the history kept no copy).
  const reminded = model.doGenerateCalls.map((call) => userTexts(call).slice(1));
  assert.equal(reminded.length, 4);
  assert.deepEqual(reminded[0], []);
  assert.deepEqual(reminded[1], []);
  assert.equal(reminded[2]?.length, 1);
  assert.match(reminded[2]?.[0] ?? '', /todo list/);
  assert.deepEqual(reminded[3], []);
  kit.close();
});

test('strict end of turn: a model that stops with work open is sent back with the reminder', async () => {
  const kit = new Todokit({ profile: 'claude-code', memory: true });
  const policy = kit.turnPolicy('c', { endOfTurn: 'strict' });
  const done = { todos: [{ content: 'Run the tests', status: 'completed', activeForm: 'Running the tests' }] };
  const model = new MockLanguageModelV4({
    doGenerate: [toolStep([['TodoWrite', ONE]], 'a'), textStep('Started.'), toolStep([['TodoWrite', done]], 'b'), textStep('All done.')],
  });
  const result = await generateText({
    model,
    prompt: 'Run the tests',
    tools: todokitTools(kit, 'c'),
    prepareStep: todokitPrepareStep(kit, policy),
    stopWhen: isStepCount(10),
    ...todokitEndOfTurn(policy),
  });
  assert.equal(model.doGenerateCalls.length, 4);
  assert.equal(result.text, 'All done.');
  const third = userTexts(model.doGenerateCalls[2]);
  assert.equal(third.length, 2, JSON.stringify(third));
  assert.match(third[1] ?? '', /Run the tests/);
  kit.close();
});

/**
 * A scripted step (`toolStep`, `textStep`) as the stream a model sends.
 * @param {any} step
 */
function streamed(step) {
  /** @type {any[]} */
  const parts = [];
  for (const part of step.content) {
    if (part.type === 'text') {
      parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' });
    } else {
      parts.push(part);
    }
  }
  parts.push({ type: 'finish', finishReason: step.finishReason, usage: step.usage });
  return { stream: convertArrayToReadableStream(parts) };
}

test('streamText: the same tools, reminders and strict end of turn', async () => {
  const kit = new Todokit({ profile: 'claude-code', memory: true });
  const policy = kit.turnPolicy('c', { endOfTurn: 'strict' });
  const done = { todos: [{ content: 'Run the tests', status: 'completed', activeForm: 'Running the tests' }] };
  const steps = [toolStep([['TodoWrite', ONE]], 'a'), textStep('Started.'), toolStep([['TodoWrite', done]], 'b'), textStep('All done.')];
  const model = new MockLanguageModelV4({ doStream: steps.map(streamed) });
  const result = streamText({
    model,
    prompt: 'Run the tests',
    tools: todokitTools(kit, 'c'),
    prepareStep: todokitPrepareStep(kit, policy),
    stopWhen: isStepCount(10),
    ...todokitEndOfTurn(policy),
  });
  await result.consumeStream();
  assert.equal(await result.text, 'All done.');
  assert.equal(model.doStreamCalls.length, 4);
  assert.match(userTexts(model.doStreamCalls[2]).at(-1) ?? '', /Run the tests/);
  assert.equal((await kit.state('c')).version, 2);
  kit.close();
});

test('soft end of turn: the warning goes to onWarning and the loop ends', async () => {
  const kit = new Todokit({ profile: 'claude-code', memory: true });
  const policy = kit.turnPolicy('c', { endOfTurn: 'soft' });
  /** @type {string[]} */
  const warnings = [];
  const model = new MockLanguageModelV4({ doGenerate: [toolStep([['TodoWrite', ONE]]), textStep('Started.')] });
  await generateText({
    model,
    prompt: 'Run the tests',
    tools: todokitTools(kit, 'c'),
    stopWhen: isStepCount(10),
    ...todokitEndOfTurn(policy, { onWarning: (text) => warnings.push(text) }),
  });
  assert.equal(model.doGenerateCalls.length, 2);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0] ?? '', /Run the tests/);
  kit.close();
});

test('input the SDK cannot parse, or that the schema would refuse, reaches the profile', async () => {
  const kit = new Todokit({ profile: 'claude-code', memory: true });
  const model = new MockLanguageModelV4({
    doGenerate: [toolStep([['TodoWrite', { todos: 'not a list' }], ['TodoWrite', 'x'.repeat(5 * 1024 * 1024)]]), textStep('ok')],
  });
  const result = await generateText({ model, prompt: 'Go', tools: todokitTools(kit, 'c'), stopWhen: isStepCount(3) });
  const outputs = toolOutputs(model.doGenerateCalls[1]);
  assert.equal(outputs.length, 2);
  // The first is the profile's own refusal; the second is not JSON at all,
  // which the SDK refuses before any tool runs.
  assert.equal(outputs[0]?.[1].type, 'error-text');
  assert.equal(result.text, 'ok');
  assert.equal((await kit.state('c')).version, 0);
  kit.close();
});
