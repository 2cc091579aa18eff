/**
 * Dot products of the semantic channel in WebAssembly: a query vector against rows of the
 * occupation centroids, their group centres and the title prototypes, about 500 products of 100
 * dimensions per ranking and the largest single cost of one (about a fifth of its time, profiled,
 * when they ran in JavaScript).
 *
 * The kernel below computes exactly what {@linkcode dotJs} computes, bit for bit: each float32 is
 * widened to float64 before the product (exact), four running sums take the elements in turn (held
 * two by two in float64x2 values), a tail that is not a multiple of four goes to the first sum, and
 * the four sums are added left to right. So rankings are the same as with the JavaScript loop
 * (dot_test.ts checks it on random vectors), only about three times faster: SIMD loads, no bounds
 * checks.
 *
 * The vectors live in the module instance's own memory (a {@linkcode DotSpace} per index):
 * callers get views into it, so the data is held once.
 */

/**
 * The module, assembled by hand (one function, `dot(q, m, n) -> f64` over byte addresses, and an
 * exported memory). In the text format:
 *
 * ```wat
 * (func $dot (param $q i32) (param $m i32) (param $n i32) (result f64)
 *   (local $end i32) (local $tailEnd i32) (local $ab v128) (local $cd v128) (local $a f64)
 *   (local.set $tailEnd (i32.add (local.get $q) (i32.shl (local.get $n) (i32.const 2))))
 *   (local.set $end (i32.add (local.get $q)
 *     (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
 *   (block (loop
 *     (br_if 1 (i32.ge_u (local.get $q) (local.get $end)))
 *     (local.set $ab (f64x2.add (local.get $ab) (f64x2.mul
 *       (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $q)))
 *       (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $m))))))
 *     (local.set $cd (f64x2.add (local.get $cd) (f64x2.mul
 *       (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $q)))
 *       (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $m))))))
 *     (local.set $q (i32.add (local.get $q) (i32.const 16)))
 *     (local.set $m (i32.add (local.get $m) (i32.const 16)))
 *     (br 0)))
 *   (local.set $a (f64x2.extract_lane 0 (local.get $ab)))
 *   (block (loop
 *     (br_if 1 (i32.ge_u (local.get $q) (local.get $tailEnd)))
 *     (local.set $a (f64.add (local.get $a) (f64.mul
 *       (f64.promote_f32 (f32.load (local.get $q))) (f64.promote_f32 (f32.load (local.get $m))))))
 *     (local.set $q (i32.add (local.get $q) (i32.const 4)))
 *     (local.set $m (i32.add (local.get $m) (i32.const 4)))
 *     (br 0)))
 *   (f64.add (f64.add (f64.add (local.get $a) (f64x2.extract_lane 1 (local.get $ab)))
 *     (f64x2.extract_lane 0 (local.get $cd))) (f64x2.extract_lane 1 (local.get $cd))))
 * ```
 */
// deno-fmt-ignore: one instruction per line reads better than one byte per line
const BODY = [
  // locals: 2 i32 ($end 3, $tailEnd 4), 2 v128 ($ab 5, $cd 6), 1 f64 ($a 7)
  0x03, 0x02, 0x7f, 0x02, 0x7b, 0x01, 0x7c,
  // $tailEnd = q + n * 4
  0x20, 0x00, 0x20, 0x02, 0x41, 0x02, 0x74, 0x6a, 0x21, 0x04,
  // $end = q + (n & -4) * 4
  0x20, 0x00, 0x20, 0x02, 0x41, 0x7c, 0x71, 0x41, 0x02, 0x74, 0x6a, 0x21, 0x03,
  // block, loop: br_if 1 (q >= $end)
  0x02, 0x40, 0x03, 0x40, 0x20, 0x00, 0x20, 0x03, 0x4f, 0x0d, 0x01,
  // $ab += promote(load64_zero q) * promote(load64_zero m)
  0x20, 0x05, 0x20, 0x00, 0xfd, 0x5d, 0x00, 0x00, 0xfd, 0x5f, 0x20, 0x01, 0xfd, 0x5d, 0x00, 0x00,
  0xfd, 0x5f, 0xfd, 0xf2, 0x01, 0xfd, 0xf0, 0x01, 0x21, 0x05,
  // $cd += the same at offset 8
  0x20, 0x06, 0x20, 0x00, 0xfd, 0x5d, 0x00, 0x08, 0xfd, 0x5f, 0x20, 0x01, 0xfd, 0x5d, 0x00, 0x08,
  0xfd, 0x5f, 0xfd, 0xf2, 0x01, 0xfd, 0xf0, 0x01, 0x21, 0x06,
  // q += 16; m += 16; br 0; end loop, end block
  0x20, 0x00, 0x41, 0x10, 0x6a, 0x21, 0x00, 0x20, 0x01, 0x41, 0x10, 0x6a, 0x21, 0x01,
  0x0c, 0x00, 0x0b, 0x0b,
  // $a = lane 0 of $ab
  0x20, 0x05, 0xfd, 0x21, 0x00, 0x21, 0x07,
  // block, loop: br_if 1 (q >= $tailEnd)
  0x02, 0x40, 0x03, 0x40, 0x20, 0x00, 0x20, 0x04, 0x4f, 0x0d, 0x01,
  // $a += promote(f32.load q) * promote(f32.load m)
  0x20, 0x07, 0x20, 0x00, 0x2a, 0x00, 0x00, 0xbb, 0x20, 0x01, 0x2a, 0x00, 0x00, 0xbb,
  0xa2, 0xa0, 0x21, 0x07,
  // q += 4; m += 4; br 0; end loop, end block
  0x20, 0x00, 0x41, 0x04, 0x6a, 0x21, 0x00, 0x20, 0x01, 0x41, 0x04, 0x6a, 0x21, 0x01,
  0x0c, 0x00, 0x0b, 0x0b,
  // (($a + $ab[1]) + $cd[0]) + $cd[1]
  0x20, 0x07, 0x20, 0x05, 0xfd, 0x21, 0x01, 0xa0, 0x20, 0x06, 0xfd, 0x21, 0x00, 0xa0,
  0x20, 0x06, 0xfd, 0x21, 0x01, 0xa0,
  0x0b,
];

/** Unsigned LEB128, as section and body sizes are written. */
function leb(n: number): number[] {
  return n < 128 ? [n] : [(n & 127) | 128, ...leb(n >>> 7)];
}

function moduleBytes(): Uint8Array {
  const code = [0x01, ...leb(BODY.length), ...BODY];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    ...[0x01, 0x08, 0x01, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x01, 0x7c], // type 0: (i32 i32 i32) -> f64
    ...[0x03, 0x02, 0x01, 0x00], // function 0 has type 0
    ...[0x05, 0x03, 0x01, 0x00, 0x00], // one memory, at least 0 pages
    // exports: "dot" (function 0), "memory" (memory 0)
    ...[0x07, 0x10, 0x02, 0x03, 0x64, 0x6f, 0x74, 0x00, 0x00],
    ...[0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00],
    ...[0x0a, ...leb(code.length), ...code],
  ]);
}

let compiled: WebAssembly.Module | null = null;

/** The reference: what the kernel computes, in JavaScript (the build's k-means uses it). */
export function dotJs(q: Float32Array, matrix: Float32Array, offset: number): number {
  // Unrolled by four; the kernel keeps the same four sums in the same order.
  let a = 0, b = 0, c = 0, d = 0;
  const n = q.length - (q.length % 4);
  let i = 0;
  for (; i < n; i += 4) {
    a += q[i] * matrix[offset + i];
    b += q[i + 1] * matrix[offset + i + 1];
    c += q[i + 2] * matrix[offset + i + 2];
    d += q[i + 3] * matrix[offset + i + 3];
  }
  for (; i < q.length; i++) a += q[i] * matrix[offset + i];
  return a + b + c + d;
}

const PAGE = 65536;
const ALIGN = 16;

/**
 * A query vector and matrices of `dims`-wide rows in one WebAssembly memory. The matrices are
 * copied in; {@linkcode matrices} are views of the copies (use them instead of the originals).
 */
export class DotSpace {
  readonly dims: number;
  /** The query: write it here, then take its dot products with rows. */
  readonly query: Float32Array;
  readonly matrices: Float32Array[];
  readonly #dot: (q: number, m: number, n: number) => number;
  readonly #bases: number[];
  readonly #queryAt: number;
  readonly #rowBytes: number;

  constructor(dims: number, matrices: Float32Array[]) {
    compiled ??= new WebAssembly.Module(moduleBytes() as BufferSource);
    const instance = new WebAssembly.Instance(compiled, {});
    const memory = instance.exports.memory as WebAssembly.Memory;
    this.#dot = instance.exports.dot as (q: number, m: number, n: number) => number;
    const aligned = (bytes: number) => Math.ceil(bytes / ALIGN) * ALIGN;
    this.#queryAt = 0;
    let at = aligned(dims * 4);
    this.#bases = matrices.map((m) => {
      const base = at;
      at += aligned(m.byteLength);
      return base;
    });
    memory.grow(Math.ceil(Math.max(at, ALIGN) / PAGE));
    this.dims = dims;
    this.#rowBytes = dims * 4;
    this.query = new Float32Array(memory.buffer, this.#queryAt, dims);
    this.matrices = matrices.map((m, i) => {
      const view = new Float32Array(memory.buffer, this.#bases[i], m.length);
      view.set(m);
      return view;
    });
  }

  /** The query's dot product with row `row` of matrix `matrix`. */
  dot(matrix: number, row: number): number {
    return this.#dot(this.#queryAt, this.#bases[matrix] + row * this.#rowBytes, this.dims);
  }
}
