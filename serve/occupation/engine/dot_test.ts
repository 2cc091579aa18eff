import assert from "node:assert/strict";
import { dotJs, DotSpace } from "./dot.ts";

/** Deterministic floats in [-1, 1) (a linear congruential generator). */
function randomFloats(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x / 2 ** 31 - 1;
  }
  return out;
}

Deno.test("the WebAssembly dot product equals the JavaScript one bit for bit, any width", () => {
  for (const dims of [0, 1, 3, 4, 5, 8, 100, 103]) {
    const rows = 37;
    const a = randomFloats(rows * dims, dims + 1);
    const b = randomFloats(5 * dims, dims + 2);
    const space = new DotSpace(dims, [a, b]);
    const query = randomFloats(dims, dims + 3);
    space.query.set(query);
    for (let row = 0; row < rows; row++) {
      assert.equal(space.dot(0, row), dotJs(query, a, row * dims), `dims ${dims}, row ${row}`);
    }
    for (let row = 0; row < 5; row++) {
      assert.equal(space.dot(1, row), dotJs(query, b, row * dims), `dims ${dims}, row ${row}`);
    }
    // The matrices are copied in: the views hold the same values, the originals are not used.
    assert.deepEqual(space.matrices[0], a);
    a.fill(0);
    if (dims > 0) assert.notDeepEqual(space.matrices[0], a);
  }
});

Deno.test("each space has its own memory", () => {
  const one = new DotSpace(4, [Float32Array.of(1, 2, 3, 4)]);
  const two = new DotSpace(4, [Float32Array.of(4, 3, 2, 1)]);
  one.query.set([1, 0, 0, 0]);
  two.query.set([1, 0, 0, 0]);
  assert.equal(one.dot(0, 0), 1);
  assert.equal(two.dot(0, 0), 4);
});

Deno.test("two rows a call give each row's dot product bit for bit, any width, any count", () => {
  for (const dims of [0, 1, 3, 4, 5, 8, 100, 103]) {
    const rows = 37;
    const a = randomFloats(rows * dims, dims + 11);
    const space = new DotSpace(dims, [randomFloats(3 * dims, dims + 12), a]);
    space.query.set(randomFloats(dims, dims + 13));
    for (const [first, count] of [[0, 0], [0, 1], [3, 2], [5, 7], [0, 37], [36, 1]]) {
      const out = new Float64Array(count).fill(NaN);
      space.dotRange(1, first, count, out);
      for (let i = 0; i < count; i++) {
        assert.equal(out[i], space.dot(1, first + i), `dims ${dims}, row ${first + i}`);
      }
    }
    const listed = Int32Array.of(36, 0, 17, 17, 4);
    for (const n of [0, 1, 2, 5]) {
      const out = new Float64Array(n).fill(NaN);
      space.dotRows(1, listed.subarray(0, n), out);
      for (let i = 0; i < n; i++) {
        assert.equal(out[i], dotJs(space.query, a, listed[i] * dims), `dims ${dims}, #${i}`);
      }
    }
  }
});
