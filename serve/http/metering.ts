/**
 * Usage metering: every runtime request is recorded (key, contract, route template, status,
 * duration, time) without a database write on the request path. Records collect in memory
 * and are written in batches every USAGE_FLUSH_MS or every 500 records, together with each
 * key's last-used time. A failed write keeps the records for the next attempt; close()
 * flushes what is left, so a graceful shutdown loses nothing.
 */
import type { Kysely, Selectable } from "kysely";
import type { DB, UsageRecordsTable } from "../stores/schema.ts";
import type { Logger } from "./log.ts";

/** One metered request: a usage_records row without its id. */
export type UsageRecord = Omit<Selectable<UsageRecordsTable>, "id">;

const BATCH = 500;
/** Beyond this many unwritten records (a long database outage) the oldest are dropped. */
const MAX_BUFFERED = 200_000;

/** Buffers usage records and writes them in batches. */
export class UsageMeter {
  #buffer: UsageRecord[] = [];
  #timer: ReturnType<typeof setInterval> | null = null;
  #flushing: Promise<void> | null = null;
  #dropped = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly logger: Logger,
    private readonly flushMs = 1000,
  ) {}

  /** Starts the periodic flush. */
  start(): void {
    this.#timer ??= setInterval(() => void this.flush(), this.flushMs);
  }

  /** Queues one record; never waits for the database. */
  record(record: UsageRecord): void {
    if (this.#buffer.length >= MAX_BUFFERED) {
      // Dropping the newest keeps the batch being written at the head of the buffer intact.
      if (this.#dropped++ % 1000 === 0) {
        this.logger.error("usage buffer full; dropping new records", { dropped: this.#dropped });
      }
      return;
    }
    this.#buffer.push(record);
    if (this.#buffer.length >= BATCH && this.#timer !== null && this.#flushing === null) {
      void this.flush();
    }
  }

  /** Records not yet written. */
  get pending(): number {
    return this.#buffer.length;
  }

  /** Writes every buffered record; concurrent calls share one write. */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#buffer.length === 0) return;
    this.#flushing = this.#write().finally(() => this.#flushing = null);
    await this.#flushing;
  }

  async #write(): Promise<void> {
    while (this.#buffer.length > 0) {
      const batch = this.#buffer.slice(0, BATCH);
      const lastUsed = new Map<string, Date>();
      for (const r of batch) {
        const seen = lastUsed.get(r.key_id);
        if (!seen || seen < r.occurred_at) lastUsed.set(r.key_id, r.occurred_at);
      }
      try {
        await this.db.transaction().execute(async (trx) => {
          await trx.insertInto("usage_records").values(batch).execute();
          for (const [keyId, at] of lastUsed) {
            await trx.updateTable("api_keys").set({ last_used_at: at }).where("id", "=", keyId)
              .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", at)]))
              .execute();
          }
        });
      } catch (error) {
        this.logger.warn("usage records not written; will retry", {
          records: this.#buffer.length,
          error: error instanceof Error ? error.message : String(error),
        });
        return;
      }
      this.#buffer.splice(0, batch.length);
    }
  }

  /** Stops the timer and writes what is left, retrying a failed write a few times. */
  async close(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    for (let attempt = 0; attempt < 5 && this.#buffer.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      await this.flush();
    }
    if (this.#buffer.length > 0) {
      this.logger.error("usage records lost at shutdown", { records: this.#buffer.length });
    }
  }
}
