/**
 * The purge of what the platform no longer needs, run by every server on a timer and by
 * `deno task admin purge`:
 * - lapsed registrations: accounts still pending_verification whose registration window
 *   (24 hours) ended, with no verification token valid within the grace period, and nothing
 *   attached (no contract, no key). The address was already free to register again; this
 *   removes the row (its tokens go with it);
 * - email tokens (verification and reset, used or not) that expired before the grace period
 *   and are over a day old (the resend limits count a day of them);
 * - login throttle entries whose 15-minute window and any lock have ended (a fresh row is
 *   the same as none).
 * The grace period is PURGE_AFTER_DAYS (7 by default). One run at a time across replicas
 * (a transaction-scoped advisory lock, on PGlite as on a server); a timer run is skipped when
 * another replica ran it within the interval.
 */
import { type Kysely, sql } from "kysely";
import type { DB } from "../stores/schema.ts";
import type { Logger } from "../http/log.ts";
import { REGISTRATION_TTL_MS } from "./accounts.ts";

const DAY_MS = 86_400_000;
const THROTTLE_WINDOW_MS = 15 * 60_000;
/** Advisory lock key of the purge (any constant other jobs of this service do not use). */
const PURGE_LOCK = 727_002;
const JOB = "purge";

/** What one purge removed. */
export interface PurgeCounts {
  lapsed_registrations: number;
  email_tokens: number;
  login_throttle: number;
}

/** The outcome of asking for a purge. */
export type PurgeOutcome =
  | { ran: true; at: string; removed: PurgeCounts }
  | { ran: false; reason: "running_elsewhere" | "ran_recently"; last_run_at?: string };

/**
 * Purges in one transaction under the advisory lock. With `skipIfRanWithinMs`, a purge done
 * (by any replica) that recently is not repeated.
 */
export function purge(
  db: Kysely<DB>,
  now: Date,
  options: { afterDays: number; skipIfRanWithinMs?: number },
): Promise<PurgeOutcome> {
  return db.transaction().execute(async (trx) => {
    const lock = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(${PURGE_LOCK}) AS ok`
      .execute(trx);
    if (!lock.rows[0]?.ok) return { ran: false, reason: "running_elsewhere" } as const;
    const last = await trx.selectFrom("maintenance_runs").select("last_run_at")
      .where("job", "=", JOB).executeTakeFirst();
    if (
      options.skipIfRanWithinMs !== undefined && last &&
      last.last_run_at.getTime() > now.getTime() - options.skipIfRanWithinMs
    ) {
      return { ran: false, reason: "ran_recently", last_run_at: last.last_run_at.toISOString() };
    }
    const graceEnd = new Date(now.getTime() - options.afterDays * DAY_MS);
    const accounts = await trx.deleteFrom("accounts as a")
      .where("a.status", "=", "pending_verification")
      .where("a.created_at", "<", new Date(graceEnd.getTime() - REGISTRATION_TTL_MS))
      .where(({ not, exists, selectFrom }) =>
        not(exists(
          selectFrom("email_tokens as t").select("t.id").whereRef("t.account_id", "=", "a.id")
            .where("t.purpose", "=", "verify_email").where("t.expires_at", ">=", graceEnd),
        ))
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom("contracts as c").select("c.id").whereRef("c.account_id", "=", "a.id")),
        )
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom("api_keys as k").select("k.id").whereRef("k.account_id", "=", "a.id")),
        )
      )
      .executeTakeFirst();
    const tokens = await trx.deleteFrom("email_tokens").where("expires_at", "<", graceEnd)
      .where("created_at", "<", new Date(now.getTime() - DAY_MS)).executeTakeFirst();
    const throttle = await trx.deleteFrom("login_throttle")
      .where("last_failure_at", "<", new Date(now.getTime() - THROTTLE_WINDOW_MS))
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now)]))
      .executeTakeFirst();
    const removed: PurgeCounts = {
      lapsed_registrations: Number(accounts.numDeletedRows),
      email_tokens: Number(tokens.numDeletedRows),
      login_throttle: Number(throttle.numDeletedRows),
    };
    const result = JSON.stringify(removed);
    await trx.insertInto("maintenance_runs").values({
      job: JOB,
      last_run_at: now,
      last_result: result,
    })
      .onConflict((oc) => oc.column("job").doUpdateSet({ last_run_at: now, last_result: result }))
      .execute();
    return { ran: true, at: now.toISOString(), removed } as const;
  });
}

/** Runs the purge every `intervalMs` (first after a short delay); logs one line per run. */
export class PurgeTimer {
  #timer: ReturnType<typeof setTimeout> | null = null;
  #running: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly logger: Logger,
    private readonly options: { intervalMs: number; afterDays: number; clock?: () => Date },
  ) {}

  /** Starts the timer (no-op when the interval is 0). */
  start(firstDelayMs = Math.min(60_000, this.options.intervalMs)): void {
    if (this.options.intervalMs === 0 || this.#timer !== null) return;
    this.#timer = setTimeout(() => this.#tick(), firstDelayMs);
  }

  #tick(): void {
    this.#running = this.runOnce().finally(() => this.#running = null);
    this.#timer = setTimeout(() => this.#tick(), this.options.intervalMs);
  }

  /** One timer run: skipped when another replica holds the lock or ran within the interval. */
  async runOnce(): Promise<void> {
    const started = performance.now();
    try {
      const outcome = await purge(this.db, (this.options.clock ?? (() => new Date()))(), {
        afterDays: this.options.afterDays,
        // A little under the interval, so timers drifting by a few ms still run each interval.
        skipIfRanWithinMs: this.options.intervalMs * 0.9,
      });
      const duration_ms = Math.round(performance.now() - started);
      if (outcome.ran) this.logger.info("purge", { ...outcome.removed, duration_ms });
      else this.logger.debug("purge skipped", { reason: outcome.reason });
    } catch (error) {
      this.logger.error("purge failed", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
