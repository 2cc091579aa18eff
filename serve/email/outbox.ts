/**
 * Transactional email outbox. A change that causes an email (sign-up, password reset) inserts
 * the message in its own transaction, so the email exists exactly when the change commits; a
 * background sender delivers due rows with retries. Bodies hold one-time links, so they are
 * encrypted at rest and erased once delivered.
 */
import { type Kysely, sql } from "kysely";
import type { DB } from "../stores/schema.ts";
import type { Logger } from "../http/log.ts";
import { openText, sealText } from "../platform/secrets.ts";
import { assertSafeAddress, cleanSubject, type OutgoingEmail, type Transport } from "./mailer.ts";

/** Puts an email in the outbox inside the caller's transaction (or plain handle). */
export async function enqueueEmail(
  db: Kysely<DB>,
  outboxKey: CryptoKey,
  email: OutgoingEmail,
  now: Date,
): Promise<void> {
  // Rejected here rather than at delivery, where a bad row would only be retried forever.
  assertSafeAddress("to", email.to);
  await db.insertInto("email_outbox").values({
    kind: email.kind,
    recipient: email.to,
    subject: cleanSubject(email.subject),
    body_encrypted: await sealText(outboxKey, email.text),
    next_attempt_at: now,
    created_at: now,
  }).execute();
}

const BACKOFF_START_MS = 5_000;
const BACKOFF_CAP_MS = 30 * 60_000;
// Failures from this attempt on are logged as errors: by then (~40 min) it is an outage.
const ALERT_AFTER_ATTEMPTS = 10;

/** Exponential delay after a failed attempt: 5 s doubling, capped at 30 min, ±10 % jitter. */
export function defaultBackoff(attempt: number): number {
  const base = Math.min(BACKOFF_CAP_MS, BACKOFF_START_MS * 2 ** Math.max(0, attempt - 1));
  // Jitter spreads the retries of many rows that failed together in one outage.
  return Math.round(base * (0.9 + Math.random() * 0.2));
}

/**
 * Whether an SMTP error refuses the recipient for good: a 5xx reply to RCPT TO (unknown
 * mailbox, policy). Other 5xx (authentication, configuration) and 4xx are worth retrying.
 */
export function isPermanentRejection(error: unknown): boolean {
  const e = error as { responseCode?: unknown; command?: unknown };
  return typeof e?.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600 &&
    typeof e.command === "string" && /^RCPT/i.test(e.command);
}

/** A short, body-free description of a delivery error for logs and `last_error`. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 300);
  const code = (error as { code?: unknown }).code;
  const label = typeof code === "string" && code ? `${error.name} ${code}` : error.name;
  return `${label}: ${error.message}`.slice(0, 300);
}

/** Settings of an OutboxSender. */
export interface OutboxSenderOptions {
  db: Kysely<DB>;
  transport: Transport;
  outboxKey: CryptoKey;
  /** The From header, e.g. `Platform <noreply@example.com>`. */
  from: string;
  logger: Logger;
  clock?: () => Date;
  /** Pause between passes of start(); default 5 s. */
  pollMs?: number;
  /** Rows claimed per pass; default 20. */
  batchSize?: number;
  /** How long a claimed row stays reserved for this sender; default 60 s. */
  claimMs?: number;
  /** Delay in ms before retrying after the given (1-based) failed attempt. */
  backoff?: (attempt: number) => number;
}

interface ClaimedRow {
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  body_encrypted: string | null;
  attempts: number;
}

/** Delivers due outbox rows; several instances may run against one database. */
export class OutboxSender {
  readonly #o: Required<Omit<OutboxSenderOptions, "clock" | "backoff">>;
  readonly #clock: () => Date;
  readonly #backoff: (attempt: number) => number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running = false;
  #generation = 0;
  #pass: Promise<unknown> = Promise.resolve();

  constructor(o: OutboxSenderOptions) {
    this.#o = {
      ...o,
      pollMs: o.pollMs ?? 5_000,
      batchSize: o.batchSize ?? 20,
      claimMs: o.claimMs ?? 60_000,
    };
    this.#clock = o.clock ?? (() => new Date());
    this.#backoff = o.backoff ?? defaultBackoff;
  }

  /** Starts polling: one pass now, then one pollMs after each pass ends. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule(0, ++this.#generation);
  }

  /** Stops polling and waits for a pass in flight. */
  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#pass;
  }

  #schedule(delayMs: number, generation: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      // A failed pass (database down) is logged; the rows stay due and the loop goes on.
      this.#pass = this.deliverDue().catch((error) =>
        this.#o.logger.error("email outbox pass failed", { error: describeError(error) })
      ).finally(() => {
        // The generation keeps a stop() then start() during this pass from forking the loop.
        if (this.#running && generation === this.#generation) {
          this.#schedule(this.#o.pollMs, generation);
        }
      });
    }, delayMs);
  }

  /** One pass: claims due rows and tries each once. */
  async deliverDue(): Promise<{ sent: number; failed: number }> {
    const { db, batchSize, claimMs } = this.#o;
    const claimedAt = this.#clock();
    const leaseEnd = new Date(claimedAt.getTime() + claimMs);
    // SKIP LOCKED lets concurrent senders claim disjoint rows; the pushed-back
    // next_attempt_at is a lease, so a row whose sender died becomes due again.
    const { rows } = await sql<ClaimedRow>`
      UPDATE email_outbox SET attempts = attempts + 1, next_attempt_at = ${leaseEnd}
      WHERE id IN (
        SELECT id FROM email_outbox
        WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ${claimedAt}
        ORDER BY id LIMIT ${batchSize}
        FOR UPDATE SKIP LOCKED)
      RETURNING id::text AS id, kind, recipient, subject, body_encrypted, attempts`.execute(db);
    rows.sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
    let sent = 0;
    let failed = 0;
    for (const [index, row] of rows.entries()) {
      // Past half the lease, another sender may soon claim the rest; hand them back instead
      // of racing it into a duplicate send.
      if (this.#clock().getTime() - claimedAt.getTime() > claimMs / 2) {
        await this.#release(rows.slice(index));
        break;
      }
      if (await this.#deliver(row)) sent++;
      else failed++;
    }
    return { sent, failed };
  }

  async #deliver(row: ClaimedRow): Promise<boolean> {
    const { db, transport, outboxKey, from, logger } = this.#o;
    try {
      if (row.body_encrypted === null) throw new Error("outbox row has no body");
      const text = await openText(outboxKey, row.body_encrypted);
      await transport.send({ kind: row.kind, to: row.recipient, subject: row.subject, text }, from);
    } catch (error) {
      const description = describeError(error);
      if (isPermanentRejection(error)) {
        // Retrying cannot help a recipient the server refuses for good; the body goes too.
        await db.updateTable("email_outbox")
          .set({ failed_at: this.#clock(), body_encrypted: null, last_error: description })
          .where("id", "=", row.id).where("attempts", "=", row.attempts)
          .where("sent_at", "is", null).execute();
        logger.error("email recipient refused for good; not retrying", {
          email_id: row.id,
          kind: row.kind,
          error: description,
        });
        return false;
      }
      const retryAt = new Date(this.#clock().getTime() + this.#backoff(row.attempts));
      // Only while the claim is still ours: never overwrite a row another sender took over.
      await db.updateTable("email_outbox")
        .set({ next_attempt_at: retryAt, last_error: description })
        .where("id", "=", row.id).where("attempts", "=", row.attempts).where("sent_at", "is", null)
        .execute();
      const fields = { email_id: row.id, attempts: row.attempts, error: description };
      if (row.attempts >= ALERT_AFTER_ATTEMPTS) logger.error("email delivery failing", fields);
      else logger.warn("email delivery failed, will retry", fields);
      return false;
    }
    // The body is erased with delivery: it holds one-time links nobody needs any more.
    await db.updateTable("email_outbox")
      .set({ sent_at: this.#clock(), body_encrypted: null, last_error: null })
      .where("id", "=", row.id).where("sent_at", "is", null)
      .execute();
    logger.info("email sent", { email_id: row.id, kind: row.kind, attempts: row.attempts });
    return true;
  }

  /** Makes claimed but untried rows due again without counting an attempt. */
  async #release(rows: ClaimedRow[]): Promise<void> {
    for (const row of rows) {
      await this.#o.db.updateTable("email_outbox")
        .set({ next_attempt_at: this.#clock(), attempts: row.attempts - 1 })
        .where("id", "=", row.id).where("attempts", "=", row.attempts).where("sent_at", "is", null)
        .execute();
    }
  }
}
