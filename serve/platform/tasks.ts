/**
 * Work done after the answer is sent, so that answers which must not reveal whether an
 * account exists cost the same whatever the database then has to do. Failures are logged;
 * drain() (called on shutdown) waits for everything started. Past MAX_QUEUED running tasks new
 * work runs before answering instead, which bounds memory under a flood.
 */
import type { Logger } from "../http/log.ts";

const MAX_QUEUED = 1000;

/** Tracks background work. */
export class BackgroundTasks {
  #running = new Set<Promise<void>>();
  #closed = false;

  constructor(private readonly logger: Logger) {}

  /** Starts `work`; resolves at once unless too much is already running. */
  async run(name: string, work: () => Promise<void>): Promise<void> {
    // After close (a request outliving the shutdown grace) the work runs before answering,
    // so a failure reaches the client as an error instead of vanishing into a log.
    if (this.#closed) return await work();
    const task: Promise<void> = work()
      .catch((error) =>
        this.logger.error("background task failed", {
          task: name,
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        })
      )
      .finally(() => this.#running.delete(task));
    this.#running.add(task);
    if (this.#running.size > MAX_QUEUED) await task;
  }

  /** Runs later work inline, then waits for what is running. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.drain();
  }

  /** Waits until every task started so far (and any they start) has finished. */
  async drain(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }
}
