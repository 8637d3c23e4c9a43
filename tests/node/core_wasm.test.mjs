// The WebAssembly build of the core must give the native CLI's numbers for the same scenarios.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertNearlyEqual } from '../near_equal.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const createKvModule = require(path.join(root, 'build/wasm/kvcache.js'));
const createKvTools = require(path.join(root, 'build/wasm/kvtools.js'));  // the log explainer and the planner
const cli = path.join(root, 'build/native/kvcache');

const native = (scenario, ...args) => {
  try {
    return JSON.parse(execFileSync(cli, ['--scenario', JSON.stringify(scenario), ...args], { encoding: 'utf8' }));
  } catch (e) {
    return JSON.parse(e.stdout);  // exit code 2 still prints the error JSON
  }
};

const scenarios = [
  {},
  { prompt_tokens: 32768 },
  { prompt_tokens: 32768, kv_cache_dtype: 'fp8' },
  { model: 'Qwen3-32B', gpu_memory_utilization: 0.72 },
  { model: 'Qwen3-14B', gpu: 'A100', concurrent_requests: 64 },
  { model: 'Qwen3-32B', force_mha: true },
  { tensor_parallel_size: 8, weight_dtype: 'fp8' },
  { model_config: { num_hidden_layers: 2, hidden_size: 256, intermediate_size: 512, num_attention_heads: 4,
                    vocab_size: 1000, max_position_embeddings: 2048 } },
  // The engine's versions, its refusals and the reader's own GPU.
  { vllm_version: '0.6.3', max_model_len: 8192 },
  { vllm_version: '0.10.1', enforce_eager: true, entry: 'offline' },
  { model: 'Qwen3-32B' },                               // refused: one max_model_len request does not fit
  { model: 'Qwen3-32B', max_model_len: 16384, max_num_seqs: 64, block_size: 32 },
  { model: 'Qwen3-14B', pipeline_parallel_size: 2 },
  { gpu_config: { memory_gib: 48, hbm_tb_per_s: 0.864, bf16_dense_tflops: 181, interconnect_gb_per_s: 64 } },
];

// Node cannot fetch() a file path: the module gets its .wasm as bytes, as a page opened from disk does.
const kv = await createKvModule({ wasmBinary: fs.readFileSync(path.join(root, 'build/wasm/kvcache.wasm')) });
const tools = await createKvTools({ wasmBinary: fs.readFileSync(path.join(root, 'build/wasm/kvtools.wasm')) });

test('wasm evaluate() equals the native CLI, field for field', () => {
  for (const scenario of scenarios) {
    const fromWasm = JSON.parse(kv.evaluate(JSON.stringify(scenario)));
    assertNearlyEqual(fromWasm, native(scenario), JSON.stringify(scenario));
  }
});

test('wasm sweeps equal the native CLI sweeps', () => {
  const scenario = { prompt_tokens: 32768, concurrent_requests: 256 };
  assertNearlyEqual(JSON.parse(tools.sweepBatch(JSON.stringify(scenario))), native(scenario, '--sweep', 'batch'), 'batch');
  assertNearlyEqual(JSON.parse(tools.sweepTensorParallel(JSON.stringify(scenario))), native(scenario, '--sweep', 'tp'), 'tp');
});

test('wasm reports bad input as the CLI does', () => {
  for (const text of ['{"prompt_tokens": 1e30}', '{"gpu": "TPU-v5e"}', '{"model_config": {"num_hidden_layers": 0}}', 'not json',
    '{"vllm_version": "latest"}', '{"gpu_config": {"memory_gib": 48}}']) {
    const error = JSON.parse(kv.evaluate(text)).error;
    assert.ok(error.field && error.code && error.message, text);
  }
  assert.equal(JSON.parse(kv.evaluate('{"prompt_tokens": 1e30}')).error.field, 'prompt_tokens');
  assert.equal(JSON.parse(kv.evaluate('not json')).error.code, 'malformed_json');
});

test('wasm catalog is the native catalog, and every entry evaluates', () => {
  const catalog = JSON.parse(kv.catalog());
  assert.deepEqual(catalog, JSON.parse(execFileSync(cli, ['--catalog'], { encoding: 'utf8' })));
  for (const id of ['Qwen3-8B', 'Qwen3-14B', 'Qwen3-32B']) assert.ok(catalog.models.some((m) => m.id === id), id);
  for (const id of ['A100', 'H100', 'H200']) assert.ok(catalog.gpus.some((g) => g.id === id), id);
  for (const m of catalog.models) assert.ok(!JSON.parse(kv.evaluate(JSON.stringify({ model: m.id }))).error, m.id);
  for (const g of catalog.gpus) assert.ok(!JSON.parse(kv.evaluate(JSON.stringify({ gpu: g.id }))).error, g.id);
  assert.equal(kv.formatValue(147456, 'kib'), '144 KiB');
});

test('the panels\' module leaves the log explainer, the planner and the sweeps to the tools\' module', () => {
  for (const verb of ['explainLog', 'planFlags', 'sweepBatch', 'sweepTensorParallel']) {
    assert.equal(kv[verb], undefined, verb);
    assert.equal(typeof tools[verb], 'function', verb);
  }
});

test('wasm explainLog() equals the native CLI\'s --explain-log, errors included', () => {
  const startups = JSON.parse(fs.readFileSync(path.join(root, 'tests/validation/startup_logs.json'), 'utf8')).startups;
  const explainNative = (text, given) => {
    const args = ['--explain-log', ...(given ? ['--scenario', JSON.stringify(given)] : [])];
    try {
      return JSON.parse(execFileSync(cli, args, { input: text, encoding: 'utf8' }));
    } catch (e) {
      return JSON.parse(e.stdout);
    }
  };
  // Every real start-up, as is (some name no catalog model: the error must match too), and one
  // that names no model with the model given, as the page's model box gives it.
  for (const s of startups) {
    const text = s.log_lines.join('\n');
    assert.deepEqual(JSON.parse(tools.explainLog(text, '')), explainNative(text), s.id);
  }
  const unnamed = startups.find((s) => s.id === 'gh10517-rtx3090-llama31-8b-29k').log_lines.join('\n');
  const given = { model: 'Llama-3.1-8B' };
  const explained = JSON.parse(tools.explainLog(unnamed, JSON.stringify(given)));
  assert.equal(explained.scenario.model, 'Llama-3.1-8B');
  assert.deepEqual(explained, explainNative(unnamed, given));
  assert.equal(JSON.parse(tools.explainLog('no log here', '')).error.field, 'log');
  assert.equal(JSON.parse(tools.explainLog('INFO Model loading took 1.0 GiB memory', '[]')).error.code, 'malformed_json');
});

test('wasm planFlags() equals the native CLI\'s --plan, errors included', () => {
  const planNative = (target) => {
    try {
      return JSON.parse(execFileSync(cli, ['--plan', JSON.stringify(target)], { encoding: 'utf8' }));
    } catch (e) {
      return JSON.parse(e.stdout);
    }
  };
  const targets = [
    { model: 'Qwen3-32B', gpu: 'H100', gpu_count: 4, users: 64, prompt_tokens: 4096, output_tokens: 512, itl_s: 0.05 },
    { model: 'Qwen3-8B', gpu: 'A100', gpu_count: 2, users: 256, prompt_tokens: 2048, output_tokens: 256, ttft_s: 0.5 },
    { model: 'Qwen3-8B', gpu: 'L4', gpu_count: 1, users: 4096, prompt_tokens: 126976, output_tokens: 1024 },  // nothing meets
    { users: 0 }, { itl_s: 0 }, { model: 'Llamaroo' }, { gpu_count: 1.5 },
  ];
  for (const target of targets)
    assertNearlyEqual(JSON.parse(tools.planFlags(JSON.stringify(target))), planNative(target), JSON.stringify(target));
  assert.equal(JSON.parse(tools.planFlags('not json')).error.code, 'malformed_json');
});
