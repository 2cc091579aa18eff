/**
 * A full garbage collection at the moments the server knows it has just dropped a lot: after each
 * artifact loads at start (before it listens) and in the ranking worker after an index loads or
 * is dropped. Loading a version leaves tens of megabytes of garbage (the snapshot file read whole,
 * DuckDB result chunks) that V8 otherwise keeps until some later major collection, which an idle
 * or lightly loaded server may not run for a long time. Measured 15 s after a restart of the full
 * artifact: 411-465 MB RSS with these collections, 480-507 MB without (README, Occupation intelligence).
 *
 * V8 exposes `gc` only with `--expose-gc` (`deno task serve` passes it); without it this does
 * nothing.
 */
export function collectGarbage(): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== "function") return null;
  const started = performance.now();
  gc();
  return performance.now() - started;
}
