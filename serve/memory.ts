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

/** glibc's `malloc_trim`, or null where the C library is not glibc or FFI is not allowed. */
export function openMallocTrim(): (() => number) | null {
  if (!Deno.build.target.endsWith("-linux-gnu")) return null;
  // Asked, not requested: a server started without --allow-ffi must not stop at a prompt.
  if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return null;
  try {
    const libc = Deno.dlopen("libc.so.6", {
      malloc_trim: { parameters: ["usize"], result: "i32" },
    });
    return () => libc.symbols.malloc_trim(0n);
  } catch {
    return null;
  }
}

/** What a MemoryTrimmer reads and calls; the server's are the process's RSS and malloc_trim. */
export interface TrimmerParts {
  rss: () => number;
  trim: () => number;
}

/**
 * Hands the C allocator's free memory back to the system when the process has grown. The request
 * thread, the ranking worker and the HTTP server allocate outside V8's heaps (request and answer
 * buffers, messages between threads); glibc keeps what they free in its arenas, so RSS under load
 * grew by 30-60 MiB that a collection does not return (notes/issue12.md). `malloc_trim(0)` returns
 * every whole free page of every arena (1.3-6.6 ms a call on this machine). The check reads RSS every
 * `intervalMs` and trims only when it has grown by `stepBytes` since the last trim, so an idle or
 * steady server makes no calls. A trim is work on the request thread: one that took longer than
 * SLOW_TRIM_MS (a larger heap than this service's) doubles the growth the next one waits for, up to
 * MAX_STEP_FACTOR times the step, and a quick one halves it back. Off where the C library is not
 * glibc or FFI is not allowed; the library is opened by start(), not before.
 */
export class MemoryTrimmer {
  #timer: ReturnType<typeof setInterval> | undefined;
  #baseline = 0;
  #step: number;
  #parts: TrimmerParts | null;
  /** Whether start() is to look up the process's parts (none were given). */
  #lookUp: boolean;
  /** Trims made, and the milliseconds they took in all. */
  readonly stats = { checks: 0, trims: 0, ms: 0 };
  constructor(
    readonly intervalMs: number,
    readonly stepBytes: number,
    /** RSS and the trim; by default the process's and glibc's, looked up by start(). */
    parts?: TrimmerParts | null,
    /** Told of each trim: RSS before and after (bytes), and its milliseconds. */
    readonly onTrim?: (trim: { before: number; after: number; ms: number }) => void,
    /**
     * While this says so, checks do not trim (the server: while an artifact version loads, RSS
     * grows by the new version, and a trim at every interval returned little for 5-12 ms of the
     * request thread each); the growth is trimmed at the first check after.
     */
    readonly busy: () => boolean = () => false,
  ) {
    this.#parts = parts === undefined ? null : parts;
    this.#lookUp = parts === undefined;
    this.#step = stepBytes;
  }

  /** The growth the next trim waits for (bytes): the step, or more after slow trims. */
  get step(): number {
    return this.#step;
  }

  /** Starts the checks; false when trimming is off (interval 0) or not available here. */
  start(): boolean {
    if (this.intervalMs <= 0 || this.#timer !== undefined) return false;
    if (this.#lookUp) [this.#parts, this.#lookUp] = [defaultParts(), false];
    if (!this.#parts) return false;
    this.#baseline = this.#parts.rss();
    const timer = setInterval(() => this.check(), this.intervalMs);
    Deno.unrefTimer(timer);
    this.#timer = timer;
    return true;
  }

  /** One check: trims when RSS has grown by the step since the last trim; says whether it did. */
  check(): boolean {
    if (!this.#parts) return false;
    this.stats.checks++;
    const rss = this.#parts.rss();
    // Growth counts from the lowest RSS seen since the last trim.
    if (rss < this.#baseline) this.#baseline = rss;
    if (rss - this.#baseline < this.#step || this.busy()) return false;
    const started = performance.now();
    this.#parts.trim();
    const ms = performance.now() - started;
    this.#step = ms > SLOW_TRIM_MS
      ? Math.min(this.#step * 2, this.stepBytes * MAX_STEP_FACTOR)
      : Math.max(this.stepBytes, this.#step / 2);
    this.stats.ms += ms;
    this.stats.trims++;
    this.#baseline = this.#parts.rss();
    this.onTrim?.({ before: rss, after: this.#baseline, ms });
    return true;
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

/** A trim longer than this (ms) makes the next wait for twice the growth. */
export const SLOW_TRIM_MS = 20;
/** At most this many steps of growth between trims. */
const MAX_STEP_FACTOR = 16;

function defaultParts(): TrimmerParts | null {
  const trim = openMallocTrim();
  return trim ? { rss: () => Deno.memoryUsage().rss, trim } : null;
}
