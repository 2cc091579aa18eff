/**
 * Sign-in throttling. Attempts are counted per normalised email (whether or not an account
 * has it, so a lock reveals nothing) and per client address, in Postgres so every instance
 * sees them. Each attempt is counted atomically *before* its password is checked, so
 * parallel guesses cannot slip past the count; a successful login takes its attempt back.
 * Limits: after 5 failed attempts for one email, or 20 from one address, within 15 minutes of
 * each other, the subject is locked for 30 seconds, doubling with each further failure up to
 * 15 minutes. While locked, attempts are refused with 429 before any password is checked.
 */
import { type Kysely, sql } from "kysely";
import type { DB } from "../stores/schema.ts";
import { sha256Text } from "./secrets.ts";

/** Free failures per subject kind before locking starts. */
export const FREE_FAILURES = { email: 5, address: 20 } as const;
const WINDOW_MS = 15 * 60_000;
const BASE_LOCK_MS = 30_000;
const MAX_LOCK_MS = 15 * 60_000;

/** A throttled subject: its storage key and its free-failure allowance. */
export interface Subject {
  key: string;
  free: number;
}

/** The subjects of a login attempt: the email (case-folded) and the client address. */
export async function loginSubjects(email: string, address: string): Promise<Subject[]> {
  return [
    { key: `email:${await sha256Text(email.toLowerCase())}`, free: FREE_FAILURES.email },
    { key: `address:${await sha256Text(address)}`, free: FREE_FAILURES.address },
  ];
}

/** The lock after `failures` failures: 30 s at the allowance, doubling, at most 15 minutes. */
function lockFor(failures: number, free: number): number {
  return Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** Math.max(0, failures - free));
}

/**
 * Counts an attempt for every subject, atomically. Returns how long the caller must wait
 * (0: go ahead and check the password). A locked subject's count is left alone; an attempt
 * beyond the allowance (a burst that raced past the lock) locks the subject and is refused.
 */
export async function claimAttempt(
  db: Kysely<DB>,
  subjects: Subject[],
  now: Date,
): Promise<number> {
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  let wait = 0;
  for (const subject of subjects) {
    const result = await sql<{ failures: number; locked_until: Date | null }>`
      INSERT INTO login_throttle (subject, failures, last_failure_at)
      VALUES (${subject.key}, 1, ${now})
      ON CONFLICT (subject) DO UPDATE SET
        failures = CASE
          WHEN login_throttle.locked_until > ${now} THEN login_throttle.failures
          WHEN login_throttle.last_failure_at < ${windowStart} THEN 1
          ELSE login_throttle.failures + 1 END,
        last_failure_at = CASE WHEN login_throttle.locked_until > ${now}
          THEN login_throttle.last_failure_at ELSE ${now} END
      RETURNING failures, locked_until`.execute(db);
    const { failures, locked_until } = result.rows[0];
    if (locked_until && locked_until.getTime() > now.getTime()) {
      wait = Math.max(wait, locked_until.getTime() - now.getTime());
    } else if (failures > subject.free) {
      // Over the allowance. With no lock yet this is a burst that raced past the count: refuse.
      // After an expired lock one attempt may go ahead, but the next lock is set now, so
      // attempts running alongside it are refused.
      const until = new Date(now.getTime() + lockFor(failures, subject.free));
      await db.updateTable("login_throttle").set({ locked_until: until })
        .where("subject", "=", subject.key).execute();
      if (!locked_until) wait = Math.max(wait, until.getTime() - now.getTime());
    }
  }
  return wait;
}

/** Settles a claimed attempt: a success takes it back; a failure may lock the subject. */
export async function settleAttempt(
  db: Kysely<DB>,
  subjects: Subject[],
  now: Date,
  success: boolean,
): Promise<void> {
  for (const subject of subjects) {
    if (success) {
      await db.updateTable("login_throttle")
        .set({ failures: sql`GREATEST(failures - 1, 0)`, locked_until: null })
        .where("subject", "=", subject.key).execute();
      continue;
    }
    const row = await db.selectFrom("login_throttle").select("failures")
      .where("subject", "=", subject.key).executeTakeFirst();
    if (row && row.failures >= subject.free) {
      await db.updateTable("login_throttle")
        .set({ locked_until: new Date(now.getTime() + lockFor(row.failures, subject.free)) })
        .where("subject", "=", subject.key).execute();
    }
  }
}

/** Forgets a subject's failures (after a successful login or a password reset). */
export async function clearFailures(db: Kysely<DB>, subject: Subject): Promise<void> {
  await db.deleteFrom("login_throttle").where("subject", "=", subject.key).execute();
}
