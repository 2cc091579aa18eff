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

/**
 * A second function, `dot2(q, m1, m2, n, out)`: the query's products with two rows at once, each
 * summed exactly as `dot` sums one (the same four running sums, the same order), stored as two
 * f64 at `out`. Half the calls, and two independent chains of sums for the adder: 16-16.5 ns a
 * product of 100 dimensions against 19-22 ns for `dot` one row a call, on the 2-core machine of
 * the README's figures (a query pre-widened to f64 saved nothing more).
 */
// deno-fmt-ignore: one instruction per line reads better than one byte per line
const BODY2 = (() => {
  // params: q 0, m1 1, m2 2, n 3, out 4; locals: $end 5, $tailEnd 6 (i32), $ab1 7, $cd1 8, $ab2 9,
  // $cd2 10 (v128), $a1 11, $a2 12 (f64)
  const get = (i: number) => [0x20, i];
  const set = (i: number) => [0x21, i];
  const lane = (i: number) => [0xfd, 0x21, i];
  // two f32 at p + offset, widened to f64x2
  const load2 = (p: number, offset: number) => [...get(p), 0xfd, 0x5d, 0x00, offset, 0xfd, 0x5f];
  // $acc += q[..] * row[..], two lanes
  const step = (acc: number, row: number, offset: number) => [
    ...get(acc), ...load2(0, offset), ...load2(row, offset), 0xfd, 0xf2, 0x01, 0xfd, 0xf0, 0x01,
    ...set(acc),
  ];
  // $a += f64(f32 q) * f64(f32 row)
  const tail = (acc: number, row: number) => [
    ...get(acc), ...get(0), 0x2a, 0x00, 0x00, 0xbb, ...get(row), 0x2a, 0x00, 0x00, 0xbb, 0xa2,
    0xa0, ...set(acc),
  ];
  const advance = (p: number, by: number) => [...get(p), 0x41, by, 0x6a, ...set(p)];
  // (($a + $ab[1]) + $cd[0]) + $cd[1], stored at out + offset
  const store = (a: number, ab: number, cd: number, offset: number) => [
    ...get(4), ...get(a), ...get(ab), ...lane(1), 0xa0, ...get(cd), ...lane(0), 0xa0, ...get(cd),
    ...lane(1), 0xa0, 0x39, 0x03, offset,
  ];
  return [
    0x03, 0x02, 0x7f, 0x04, 0x7b, 0x02, 0x7c,
    // $tailEnd = q + n * 4; $end = q + (n & -4) * 4
    ...get(0), ...get(3), 0x41, 0x02, 0x74, 0x6a, ...set(6),
    ...get(0), ...get(3), 0x41, 0x7c, 0x71, 0x41, 0x02, 0x74, 0x6a, ...set(5),
    // four elements a turn, both rows
    0x02, 0x40, 0x03, 0x40, ...get(0), ...get(5), 0x4f, 0x0d, 0x01,
    ...step(7, 1, 0), ...step(9, 2, 0), ...step(8, 1, 8), ...step(10, 2, 8),
    ...advance(0, 16), ...advance(1, 16), ...advance(2, 16),
    0x0c, 0x00, 0x0b, 0x0b,
    ...get(7), ...lane(0), ...set(11),
    ...get(9), ...lane(0), ...set(12),
    // the tail, to the first sums
    0x02, 0x40, 0x03, 0x40, ...get(0), ...get(6), 0x4f, 0x0d, 0x01,
    ...tail(11, 1), ...tail(12, 2),
    ...advance(0, 4), ...advance(1, 4), ...advance(2, 4),
    0x0c, 0x00, 0x0b, 0x0b,
    ...store(11, 7, 8, 0), ...store(12, 9, 10, 8),
    0x0b,
  ];
})();

/** Unsigned LEB128, as section and body sizes are written. */
function leb(n: number): number[] {
  return n < 128 ? [n] : [(n & 127) | 128, ...leb(n >>> 7)];
}

function moduleBytes(): Uint8Array {
  const body = (bytes: number[]) => [...leb(bytes.length), ...bytes];
  const code = [0x02, ...body(BODY), ...body(BODY2)];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    // types: 0 (i32 i32 i32) -> f64, 1 (i32 i32 i32 i32 i32) -> ()
    ...[0x01, 0x10, 0x02, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x01, 0x7c],
    ...[0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00],
    ...[0x03, 0x03, 0x02, 0x00, 0x01], // function 0 has type 0, function 1 type 1
    ...[0x05, 0x03, 0x01, 0x00, 0x00], // one memory, at least 0 pages
    // exports: "dot" (function 0), "dot2" (function 1), "memory" (memory 0)
    ...[0x07, 0x17, 0x03, 0x03, 0x64, 0x6f, 0x74, 0x00, 0x00],
    ...[0x04, 0x64, 0x6f, 0x74, 0x32, 0x00, 0x01],
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

/** dot2's signature: byte addresses of the query, the two rows and the two results. */
type Dot2 = (q: number, m1: number, m2: number, n: number, out: number) => void;

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
  readonly #dot2: Dot2;
  /** Where dot2 stores its two products, and a view of them. */
  readonly #pairAt: number;
  readonly #pair: Float64Array;
  readonly #bases: number[];
  readonly #queryAt: number;
  readonly #rowBytes: number;

  constructor(dims: number, matrices: Float32Array[]) {
    compiled ??= new WebAssembly.Module(moduleBytes() as BufferSource);
    const instance = new WebAssembly.Instance(compiled, {});
    const memory = instance.exports.memory as WebAssembly.Memory;
    this.#dot = instance.exports.dot as (q: number, m: number, n: number) => number;
    this.#dot2 = instance.exports.dot2 as Dot2;
    const aligned = (bytes: number) => Math.ceil(bytes / ALIGN) * ALIGN;
    this.#pairAt = 0;
    this.#queryAt = ALIGN;
    let at = ALIGN + aligned(dims * 4);
    this.#bases = matrices.map((m) => {
      const base = at;
      at += aligned(m.byteLength);
      return base;
    });
    memory.grow(Math.ceil(Math.max(at, ALIGN) / PAGE));
    this.dims = dims;
    this.#rowBytes = dims * 4;
    this.query = new Float32Array(memory.buffer, this.#queryAt, dims);
    this.#pair = new Float64Array(memory.buffer, this.#pairAt, 2);
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

  /**
   * The query's dot products with rows `first` to `first + count - 1` of matrix `matrix`, into
   * `out[0..count)`: the same values as {@linkcode dot} row by row, two rows a call.
   */
  dotRange(matrix: number, first: number, count: number, out: Float64Array): void {
    const base = this.#bases[matrix] + first * this.#rowBytes;
    const step = this.#rowBytes;
    const pair = this.#pair;
    let i = 0;
    for (; i + 1 < count; i += 2) {
      const at = base + i * step;
      this.#dot2(this.#queryAt, at, at + step, this.dims, this.#pairAt);
      out[i] = pair[0];
      out[i + 1] = pair[1];
    }
    if (i < count) out[i] = this.#dot(this.#queryAt, base + i * step, this.dims);
  }

  /**
   * The query's dot products with the listed rows of matrix `matrix`, into `out[0..rows.length)`,
   * as {@linkcode dotRange}.
   */
  dotRows(matrix: number, rows: Int32Array, out: Float64Array): void {
    const base = this.#bases[matrix];
    const step = this.#rowBytes;
    const pair = this.#pair;
    let i = 0;
    for (; i + 1 < rows.length; i += 2) {
      this.#dot2(
        this.#queryAt,
        base + rows[i] * step,
        base + rows[i + 1] * step,
        this.dims,
        this.#pairAt,
      );
      out[i] = pair[0];
      out[i + 1] = pair[1];
    }
    if (i < rows.length) out[i] = this.#dot(this.#queryAt, base + rows[i] * step, this.dims);
  }
}
