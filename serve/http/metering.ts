/**
 * Usage metering: every runtime request is counted (key, contract, method, route template,
 * status, UTC minute, with its duration summed) without a database write on the request path.
 * Counts add up in memory and are written every USAGE_FLUSH_MS, or sooner once BATCH groups
 * wait, with one upsert per BATCH groups (`requests = requests + n`) and each key's last-used
 * time, so a minute of traffic on one route costs a row whatever its rate, and two instances
 * add to the same rows. A failed write keeps the counts for the next attempt; close() flushes
 * what is left, so a graceful shutdown loses nothing.
 *
 * Until 2026-11-26 each request was a usage_records row and only refusals (429) were counted
 * this way; the rows' inserts, on the request thread under embedded PGlite, cost about 15% of
 * the server's throughput (notes/issue12.md). Nothing read a row on its own.
 */
import { type Kysely, sql } from "kysely";
import type { DB } from "../stores/schema.ts";
import type { Logger } from "./log.ts";

/** One metered request. */
export interface UsageRecord {
  account_id: string;
  key_id: string;
  contract_id: string;
  method: string;
  route: string;
  status: number;
  duration_ms: number;
  occurred_at: Date;
}

/** The requests of one key, contract, method, route, status and UTC minute. */
interface UsageCount extends Omit<UsageRecord, "duration_ms" | "occurred_at"> {
  minute: Date;
  requests: number;
  duration_ms_total: number;
  last_at: Date;
}

/** Groups per statement, and the number of waiting groups that starts a flush early. */
const BATCH = 100;
/**
 * Beyond this many unwritten groups (a long database outage: a group per key, route, status
 * and minute) new groups are dropped; requests that fall into a waiting group still count.
 */
const MAX_GROUPS = 200_000;

const groupKey = (
  c: Pick<UsageCount, "key_id" | "contract_id" | "method" | "route" | "status">,
  minute: number,
) =>
  `${c.key_id}\u0000${c.contract_id}\u0000${c.method}\u0000${c.route}\u0000${c.status}\u0000${minute}`;

/** Counts usage records per minute and writes the counts in batches. */
export class UsageMeter {
  #counts = new Map<string, UsageCount>();
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

  /** Counts one request; never waits for the database. */
  record(r: UsageRecord): void {
    const at = r.occurred_at.getTime();
    const minute = at - (((at % 60_000) + 60_000) % 60_000);
    const key = groupKey(r, minute);
    const count = this.#counts.get(key);
    if (count) {
      count.requests++;
      count.duration_ms_total += r.duration_ms;
      if (count.last_at < r.occurred_at) count.last_at = r.occurred_at;
      return;
    }
    if (this.#counts.size >= MAX_GROUPS) {
      if (this.#dropped++ % 1000 === 0) {
        this.logger.error("usage counts full; dropping new groups", { dropped: this.#dropped });
      }
      return;
    }
    this.#counts.set(key, {
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
    if (this.#counts.size >= BATCH && this.#timer !== null && this.#flushing === null) {
      void this.flush();
    }
  }

  /** Requests counted and not yet written. */
  get pending(): number {
    let n = 0;
    for (const c of this.#counts.values()) n += c.requests;
    return n;
  }

  /** Writes every waiting count; concurrent calls share one write. */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#counts.size === 0) return;
    this.#flushing = this.#write().finally(() => this.#flushing = null);
    await this.#flushing;
  }

  async #write(): Promise<void> {
    const counts = [...this.#counts.values()];
    // Requests counted while this write runs go to a fresh map; a failure merges them back.
    this.#counts = new Map();
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
          await sql`INSERT INTO usage_minutes (account_id, key_id, contract_id, method, route,
              status, minute, requests, duration_ms_total)
            VALUES ${sql.join(rows)}
            ON CONFLICT (key_id, contract_id, method, route, status, minute) DO UPDATE
              SET requests = usage_minutes.requests + excluded.requests,
                  duration_ms_total = usage_minutes.duration_ms_total + excluded.duration_ms_total`
            .execute(trx);
        }
        await this.#touchKeys(trx, lastUsed);
      });
    } catch (error) {
      for (const c of counts) {
        const key = groupKey(c, c.minute.getTime());
        const later = this.#counts.get(key);
        if (later) {
          c.requests += later.requests;
          c.duration_ms_total += later.duration_ms_total;
          if (c.last_at < later.last_at) c.last_at = later.last_at;
        }
        this.#counts.set(key, c);
      }
      this.logger.warn("usage counts not written; will retry", {
        groups: counts.length,
        error: error instanceof Error ? error.message : String(error),
      });
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
