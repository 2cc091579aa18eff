/**
 * Sign-in and account-request throttling, in Postgres so every instance sees it. Attempts are
 * counted per subject (a case-folded email, whether or not an account has it, so a lock
 * reveals nothing; a client address) inside one transaction that locks the subjects' rows,
 * so the decision and the count are a single step and parallel attempts cannot slip past it.
 *
 * Rules: a subject may have `free` attempts (5 per email, 20 per address for logins) within
 * 15 minutes of its last failure. The attempt that would exceed them is refused and locks the
 * subject for 30 s; after a lock ends one attempt may go ahead, and while it runs the next
 * lock (doubled, up to 15 minutes) is already in place, so attempts alongside it are refused.
 * A refusal on any subject counts on none. A successful login gives its attempt back and
 * undoes what it changed, so successes never hold a window open or lock anyone.
 */
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../stores/schema.ts";
import { sha256Hex } from "../../build/hash.ts";
import { emailKey } from "./email_address.ts";

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
    { key: `email:${await sha256Hex(emailKey(email))}`, free: FREE_FAILURES.email },
    { key: `address:${await sha256Hex(address)}`, free: FREE_FAILURES.address },
  ];
}

/** The lock after `failures` failures: 30 s at the allowance, doubling, at most 15 minutes. */
function lockFor(failures: number, free: number): number {
  return Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** Math.max(0, failures - free));
}

interface Row {
  subject: string;
  failures: number;
  last_failure_at: Date;
  locked_until: Date | null;
}

/** A claimed attempt: the wait (0: go ahead) and the rows as they were, for settling. */
export interface Claim {
  wait: number;
  before: Row[];
}

async function lockRows(trx: Transaction<DB>, subjects: Subject[], now: Date): Promise<Row[]> {
  const keys = subjects.map((s) => s.key).sort(); // one lock order for every caller
  // One upsert creates or locks every subject's row, in key order. An insert followed by
  // SELECT ... FOR UPDATE was two steps: a successful login (clearFailures) could delete a row
  // between them, and inserting it again while holding the other row's lock deadlocked against a
  // concurrent login on PostgreSQL (a 500, under four concurrent logins of one account).
  const rows = await trx.insertInto("login_throttle")
    .values(keys.map((subject) => ({ subject, failures: 0, last_failure_at: now })))
    .onConflict((oc) =>
      oc.column("subject").doUpdateSet((eb) => ({ subject: eb.ref("excluded.subject") }))
    )
    .returningAll().execute();
  return rows.sort((a, b) => a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0);
}

function write(trx: Transaction<DB>, row: Row) {
  return trx.updateTable("login_throttle").set({
    failures: row.failures,
    last_failure_at: row.last_failure_at,
    locked_until: row.locked_until,
  }).where("subject", "=", row.subject).execute();
}

/** Decides and counts one attempt for every subject, atomically. */
export async function claimAttempt(db: Kysely<DB>, subjects: Subject[], now: Date): Promise<Claim> {
  const t = now.getTime();
  return await db.transaction().execute(async (trx) => {
    const before = await lockRows(trx, subjects, now);
    const rows = before.map((row) =>
      row.last_failure_at.getTime() < t - WINDOW_MS
        ? { ...row, failures: 0, locked_until: null } // the window passed: start afresh
        : { ...row }
    );
    let wait = 0;
    for (const row of rows) {
      const free = subjects.find((s) => s.key === row.subject)!.free;
      if (row.locked_until && row.locked_until.getTime() > t) {
        wait = Math.max(wait, row.locked_until.getTime() - t);
      } else if (row.failures >= free && !row.locked_until) {
        // The allowance is used up and no lock was served yet: lock now, refuse.
        row.locked_until = new Date(t + lockFor(row.failures, free));
        wait = Math.max(wait, row.locked_until.getTime() - t);
      }
    }
    if (wait > 0) {
      for (const row of rows) await write(trx, row); // counts nothing, keeps any new lock
      return { wait, before };
    }
    for (const row of rows) {
      const free = subjects.find((s) => s.key === row.subject)!.free;
      row.failures += 1;
      row.last_failure_at = now;
      // Past the allowance (one attempt after a served lock): the next lock is already set.
      row.locked_until = row.failures > free ? new Date(t + lockFor(row.failures, free)) : null;
      await write(trx, row);
    }
    return { wait: 0, before };
  });
}

/**
 * Settles a claimed attempt. A failure at or past the allowance locks the subject. A success
 * restores each row as the claim found it (minus nothing: the attempt is given back), except
 * that the email's failures are forgotten altogether.
 */
export async function settleAttempt(
  db: Kysely<DB>,
  subjects: Subject[],
  claim: Claim,
  now: Date,
  success: boolean,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const rows = await lockRows(trx, subjects, now);
    for (const row of rows) {
      const free = subjects.find((s) => s.key === row.subject)!.free;
      if (success) {
        // The claim saw the row as it was (or, deleted meanwhile, this fresh one).
        const before = claim.before.find((b) => b.subject === row.subject) ?? row;
        await write(trx, {
          ...row,
          failures: Math.max(0, row.failures - 1),
          last_failure_at: before.last_failure_at,
          locked_until: row.failures - 1 > free ? row.locked_until : before.locked_until,
        });
      } else if (row.failures >= free) {
        const until = new Date(now.getTime() + lockFor(row.failures, free));
        if (!row.locked_until || row.locked_until < until) {
          await write(trx, { ...row, locked_until: until });
        }
      }
    }
  });
}

/** Forgets a subject's failures (after a successful login or a password reset). */
export async function clearFailures(db: Kysely<DB>, subject: Subject): Promise<void> {
  await db.deleteFrom("login_throttle").where("subject", "=", subject.key).execute();
}
