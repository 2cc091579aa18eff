/**
 * Usage metering: every runtime request is recorded (key, contract, route template, status,
 * duration, time) without a database write on the request path. Records collect in memory
 * and are written in batches every USAGE_FLUSH_MS or every 100 records, together with each
 * key's last-used time. A failed write keeps the records for the next attempt; close()
 * flushes what is left, so a graceful shutdown loses nothing.
 *
 * Refused requests (429: rate, quota or concurrency) are counted, not logged row by row: a
 * flood over a limit would otherwise write a row per refusal. They add up in memory per key,
 * contract, method, route, status and UTC minute, and each flush adds those counts (and the
 * summed durations) to `usage_refusals` with one upsert, so a flood costs a row per minute.
 */
import { type Kysely, type Selectable, sql } from "kysely";
import type { DB, UsageRecordsTable } from "../stores/schema.ts";
import type { Logger } from "./log.ts";

/** One metered request: a usage_records row without its id. */
export type UsageRecord = Omit<Selectable<UsageRecordsTable>, "id">;

/** Statuses counted per minute instead of recorded one by one. */
export const COUNTED_STATUSES: ReadonlySet<number> = new Set([429]);

/** Refused requests of one key, contract, method, route, status and minute. */
interface RefusalCount {
  account_id: string;
  key_id: string;
  contract_id: string;
  method: string;
  route: string;
  status: number;
  minute: Date;
  requests: number;
  duration_ms_total: number;
  last_at: Date;
}

/**
 * Records per statement. On embedded PGlite a batch runs on the request thread at about 15 µs a
 * record, so it holds every request for that long: 500 held them 7-10 ms (health's p99 at 32
 * connections 10.1-12.5 ms), 100 for 1.5-2 ms with a pause between batches (7.9-8.1 ms, one
 * bench:serve run; uncached candidates' p99 unchanged), for about 2 µs more per record.
 */
const BATCH = 100;
/** Beyond this many unwritten records (a long database outage) the oldest are dropped. */
const MAX_BUFFERED = 200_000;

/**
 * Inserts records with one statement of nine array parameters (`unnest`), the same on PGlite and
 * PostgreSQL. A multi-row VALUES list binds a parameter per column and row (4,500 for a batch of
 * 500): on embedded PGlite, which runs on the request thread, that cost about 25 µs of CPU per
 * record against 14 µs this way (measured with 20 batches of 500 on a fresh database).
 */
async function insertRecords(db: Kysely<DB>, rows: UsageRecord[]): Promise<void> {
  const column = <T>(pick: (r: UsageRecord) => T) => rows.map(pick);
  await sql`INSERT INTO usage_records
      (account_id, key_id, contract_id, method, route, status, duration_ms, request_id, occurred_at)
    SELECT * FROM unnest(
      ${column((r) => r.account_id)}::bigint[], ${column((r) => r.key_id)}::bigint[],
      ${column((r) => r.contract_id)}::bigint[], ${column((r) => r.method)}::text[],
      ${column((r) => r.route)}::text[], ${column((r) => r.status)}::smallint[],
      ${column((r) => r.duration_ms)}::real[], ${column((r) => r.request_id)}::text[],
      ${column((r) => r.occurred_at.toISOString())}::timestamptz[])`.execute(db);
}

/** Buffers usage records and writes them in batches. */
export class UsageMeter {
  #buffer: UsageRecord[] = [];
  #refusals = new Map<string, RefusalCount>();
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
    if (COUNTED_STATUSES.has(record.status)) return this.#count(record);
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

  #count(r: UsageRecord): void {
    const minute = Math.floor(r.occurred_at.getTime() / 60_000) * 60_000;
    const key = [r.key_id, r.contract_id, r.method, r.route, r.status, minute].join("\u0000");
    const count = this.#refusals.get(key);
    if (count) {
      count.requests++;
      count.duration_ms_total += r.duration_ms;
      if (count.last_at < r.occurred_at) count.last_at = r.occurred_at;
      return;
    }
    this.#refusals.set(key, {
      account_id: r.account_id,
      key_id: r.key_id,
      contract_id: r.contract_id,
      method: r.method,
      route: r.route,
      status: r.status,
      minute: new Date(minute),
      requests: 1,
      duration_ms_total: r.duration_ms,
      last_at: r.occurred_at,
    });
  }

  /** Records not yet written, counted refusals included. */
  get pending(): number {
    let counted = 0;
    for (const c of this.#refusals.values()) counted += c.requests;
    return this.#buffer.length + counted;
  }

  /** Writes every buffered record; concurrent calls share one write. */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#buffer.length === 0 && this.#refusals.size === 0) return;
    this.#flushing = this.#write().finally(() => this.#flushing = null);
    await this.#flushing;
  }

  async #write(): Promise<void> {
    if (!(await this.#writeRefusals())) return;
    while (this.#buffer.length > 0) {
      const batch = this.#buffer.slice(0, BATCH);
      const lastUsed = new Map<string, Date>();
      for (const r of batch) {
        const seen = lastUsed.get(r.key_id);
        if (!seen || seen < r.occurred_at) lastUsed.set(r.key_id, r.occurred_at);
      }
      try {
        await this.db.transaction().execute(async (trx) => {
          await insertRecords(trx, batch);
          await this.#touchKeys(trx, lastUsed);
        });
      } catch (error) {
        this.logger.warn("usage records not written; will retry", {
          records: this.#buffer.length,
          error: error instanceof Error ? error.message : String(error),
        });
        return;
      }
      this.#buffer.splice(0, batch.length);
      // PGlite runs a statement on this thread: requests waiting meanwhile go first.
      if (this.#buffer.length > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  /** Adds the counted refusals to usage_refusals; false (counts kept) when that failed. */
  async #writeRefusals(): Promise<boolean> {
    if (this.#refusals.size === 0) return true;
    const counts = [...this.#refusals.values()];
    // Refusals counted while this write runs go to a fresh map; a failure merges them back.
    this.#refusals = new Map();
    const lastUsed = new Map<string, Date>();
    for (const c of counts) {
      const seen = lastUsed.get(c.key_id);
      if (!seen || seen < c.last_at) lastUsed.set(c.key_id, c.last_at);
    }
    try {
      await this.db.transaction().execute(async (trx) => {
        for (let i = 0; i < counts.length; i += BATCH) {
          const rows = counts.slice(i, i + BATCH).map((c) =>
            sql`(${c.account_id}, ${c.key_id}, ${c.contract_id}, ${c.method}, ${c.route},
              ${c.status}, ${c.minute}, ${c.requests}, ${c.duration_ms_total})`
          );
          await sql`INSERT INTO usage_refusals (account_id, key_id, contract_id, method, route,
              status, minute, requests, duration_ms_total)
            VALUES ${sql.join(rows)}
            ON CONFLICT (key_id, contract_id, method, route, status, minute) DO UPDATE
              SET requests = usage_refusals.requests + excluded.requests,
                  duration_ms_total = usage_refusals.duration_ms_total + excluded.duration_ms_total`
            .execute(trx);
        }
        await this.#touchKeys(trx, lastUsed);
      });
      return true;
    } catch (error) {
      for (const c of counts) {
        const key = [c.key_id, c.contract_id, c.method, c.route, c.status, c.minute.getTime()]
          .join("\u0000");
        const later = this.#refusals.get(key);
        if (later) {
          c.requests += later.requests;
          c.duration_ms_total += later.duration_ms_total;
          if (c.last_at < later.last_at) c.last_at = later.last_at;
        }
        this.#refusals.set(key, c);
      }
      this.logger.warn("usage refusal counts not written; will retry", {
        groups: counts.length,
        error: error instanceof Error ? error.message : String(error),
      });
      return false;
    }
  }

  async #touchKeys(trx: Kysely<DB>, lastUsed: Map<string, Date>): Promise<void> {
    for (const [keyId, at] of lastUsed) {
      await trx.updateTable("api_keys").set({ last_used_at: at }).where("id", "=", keyId)
        .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", at)]))
        .execute();
    }
  }

  /** Stops the timer and writes what is left, retrying a failed write a few times. */
  async close(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    for (let attempt = 0; attempt < 5 && this.pending > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      await this.flush();
    }
    if (this.pending > 0) {
      this.logger.error("usage records lost at shutdown", { records: this.pending });
    }
  }
}
