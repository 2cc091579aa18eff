/**
 * Sign-in throttling. Failed logins are counted per normalised email (whether or not an
 * account has it, so a lock reveals nothing) and per client address, in Postgres so every
 * instance sees them. Limits: after 5 failures for one email, or 20 from one address, within
 * 15 minutes of each other, the subject is locked for 30 seconds, doubling with each further
 * failure up to 15 minutes. While locked, attempts are refused with 429 before any password
 * is checked. A successful login clears the email's count (not the address's).
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

/** The subjects of a login attempt: the email and the client address. */
export async function loginSubjects(email: string, address: string): Promise<Subject[]> {
  return [
    { key: `email:${await sha256Text(email)}`, free: FREE_FAILURES.email },
    { key: `address:${await sha256Text(address)}`, free: FREE_FAILURES.address },
  ];
}

/** Milliseconds until every subject is unlocked (0 when none is locked). */
export async function lockedForMs(db: Kysely<DB>, subjects: Subject[], now: Date): Promise<number> {
  const rows = await db.selectFrom("login_throttle").select("locked_until")
    .where("subject", "in", subjects.map((s) => s.key)).execute();
  let wait = 0;
  for (const row of rows) {
    if (row.locked_until) wait = Math.max(wait, row.locked_until.getTime() - now.getTime());
  }
  return wait;
}

/** Counts one failure for each subject and locks those over their allowance. */
export async function recordFailure(db: Kysely<DB>, subjects: Subject[], now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  for (const subject of subjects) {
    const result = await sql<{ failures: number }>`
      INSERT INTO login_throttle (subject, failures, last_failure_at)
      VALUES (${subject.key}, 1, ${now})
      ON CONFLICT (subject) DO UPDATE SET
        failures = CASE WHEN login_throttle.last_failure_at < ${windowStart} THEN 1
          ELSE login_throttle.failures + 1 END,
        last_failure_at = ${now}
      RETURNING failures`.execute(db);
    const failures = result.rows[0].failures;
    const over = failures - subject.free + 1; // the 5th failure locks: the 6th try waits
    const lockedUntil = over > 0
      ? new Date(now.getTime() + Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** (over - 1)))
      : null;
    await db.updateTable("login_throttle").set({ locked_until: lockedUntil })
      .where("subject", "=", subject.key).execute();
  }
}

/** Forgets a subject's failures (after a successful login or a password reset). */
export async function clearFailures(db: Kysely<DB>, subject: Subject): Promise<void> {
  await db.deleteFrom("login_throttle").where("subject", "=", subject.key).execute();
}
