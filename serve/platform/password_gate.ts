/**
 * A process-wide cap on concurrent password hashing (argon2id: 19 MiB and tens of
 * milliseconds of CPU each). Up to `maxConcurrent` run at once; a few dozen more wait in a
 * queue for at most `maxWaitMs`; anything beyond is refused at once with 503 and Retry-After.
 * A login flood then costs the CPUs and memory of `maxConcurrent` hashes, not of every
 * attempt in flight, and the service's other routes keep their share of the machine.
 */
import { ApiError } from "../http/errors.ts";

/** Seconds a client refused by the gate is told to wait. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

interface Waiter {
  resolve: (release: () => void) => void;
  timer: ReturnType<typeof setTimeout>;
}

function busy(): ApiError {
  return new ApiError(
    "overloaded",
    "too many password checks are in progress; try again shortly",
    {},
    { "retry-after": String(BUSY_RETRY_AFTER_SECONDS) },
  );
}

/** Admits password work up to a concurrency limit, with a short bounded queue. */
export class PasswordGate {
  #active = 0;
  #queue: Waiter[] = [];

  /** `maxConcurrent` 0 turns the gate off: every caller goes ahead at once. */
  constructor(
    readonly maxConcurrent: number,
    readonly maxQueued: number,
    readonly maxWaitMs: number,
  ) {}

  /** Work running now, and callers waiting for a turn. */
  get load(): { active: number; queued: number } {
    return { active: this.#active, queued: this.#queue.length };
  }

  /**
   * Throws what acquire() would when the queue is full, without queueing: lets a caller skip
   * work it would do before asking for a turn (a login's throttle transactions).
   */
  refuseIfFull(): void {
    if (
      this.maxConcurrent > 0 && this.#active >= this.maxConcurrent &&
      this.#queue.length >= this.maxQueued
    ) throw busy();
  }

  /**
   * Waits for a turn and returns the function that ends it (call it exactly once). Throws
   * ApiError "overloaded" (503, Retry-After) when the queue is full or the wait times out.
   */
  acquire(): Promise<() => void> {
    if (this.maxConcurrent === 0) return Promise.resolve(() => {});
    if (this.#active < this.maxConcurrent) {
      this.#active++;
      return Promise.resolve(this.#releaser());
    }
    if (this.#queue.length >= this.maxQueued) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => {
          this.#queue.splice(this.#queue.indexOf(waiter), 1);
          reject(busy());
        }, this.maxWaitMs),
      };
      this.#queue.push(waiter);
    });
  }

  /** Runs `work` in a turn of its own. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#queue.shift();
      if (next) {
        clearTimeout(next.timer);
        next.resolve(this.#releaser()); // the turn passes straight on: #active is unchanged
      } else {
        this.#active--;
      }
    };
  }
}
