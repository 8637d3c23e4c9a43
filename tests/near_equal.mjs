// Deep equality for the native and WebAssembly builds' results: the same arithmetic, but a step's
// matmuls near the ridge take a p-norm through pow(), and a plan or a serving run draws arrival gaps
// and lengths through log, exp and cos, which Emscripten's musl and glibc may round a last bit
// apart. Numbers agree to a relative 1e-12; everything else exactly.
import assert from 'node:assert/strict';

export function assertNearlyEqual(actual, expected, where = '') {
  if (typeof expected === 'number' && typeof actual === 'number') {
    const scale = Math.max(Math.abs(expected), Number.MIN_VALUE);
    assert.ok(Math.abs(actual - expected) <= 1e-12 * scale, `${where}: ${actual} against ${expected}`);
    return;
  }
  if (expected === null || typeof expected !== 'object') {
    assert.equal(actual, expected, where);
    return;
  }
  assert.ok(actual !== null && typeof actual === 'object', `${where}: ${actual} against an object`);
  assert.equal(Array.isArray(actual), Array.isArray(expected), where);
  assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort(), where);
  for (const key of Object.keys(expected)) assertNearlyEqual(actual[key], expected[key], `${where}.${key}`);
}
