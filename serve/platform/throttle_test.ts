import assert from "node:assert/strict";
import { claimAttempt, clearFailures, settleAttempt, type Subject } from "./throttle.ts";
import { testClock, testDatabase } from "../../tests/helpers.ts";
import { migrate } from "../stores/migrate.ts";

const subject = (free: number): Subject[] => [{ key: "email:test", free }];

Deno.test("throttle: a burst after a served lock gets one attempt, not many", async () => {
  const { database, cleanup } = await testDatabase();
  try {
    await migrate(database);
    const clock = testClock();
    const s = subject(5);
    const fail = async () => {
      const claim = await claimAttempt(database.db, s, clock.now());
      if (claim.wait === 0) await settleAttempt(database.db, s, claim, clock.now(), false);
      return claim.wait;
    };
    for (let i = 0; i < 5; i++) assert.equal(await fail(), 0);
    assert.ok((await fail()) > 0, "locked after 5 failures");
    clock.advance(31_000);
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => claimAttempt(database.db, s, clock.now())),
    );
    assert.equal(burst.filter((c) => c.wait === 0).length, 1, "one attempt after the lock");
    // A day later the window has passed: a fresh allowance of 5, still not more in a burst.
    clock.advance(86_400_000);
    const later = await Promise.all(
      Array.from({ length: 20 }, () => claimAttempt(database.db, s, clock.now())),
    );
    assert.equal(later.filter((c) => c.wait === 0).length, 5);
  } finally {
    await cleanup();
  }
});

Deno.test("throttle: successes give their attempt back and never lock a shared address", async () => {
  const { database, cleanup } = await testDatabase();
  try {
    await migrate(database);
    const clock = testClock();
    const s = subject(20);
    let refused = 0;
    for (let i = 0; i < 200; i++) {
      const claim = await claimAttempt(database.db, s, clock.now());
      if (claim.wait > 0) refused++;
      else await settleAttempt(database.db, s, claim, clock.now(), i % 8 !== 0);
      clock.advance(5 * 60_000); // one login every 5 minutes, one typo in 8
    }
    assert.equal(refused, 0);
  } finally {
    await cleanup();
  }
});

Deno.test("throttle: a refusal on one subject counts on none", async () => {
  const { database, cleanup } = await testDatabase();
  try {
    await migrate(database);
    const clock = testClock();
    const email: Subject = { key: "email:x", free: 1 };
    const address: Subject = { key: "address:y", free: 100 };
    const first = await claimAttempt(database.db, [email, address], clock.now());
    await settleAttempt(database.db, [email, address], first, clock.now(), false);
    const locked = await claimAttempt(database.db, [email, address], clock.now());
    assert.ok(locked.wait > 0);
    const row = await database.db.selectFrom("login_throttle").select("failures")
      .where("subject", "=", "address:y").executeTakeFirstOrThrow();
    assert.equal(row.failures, 1, "the refused attempt was not counted on the address");
  } finally {
    await cleanup();
  }
});

Deno.test("throttle: concurrent successful logins of one account never fail (no deadlock)", async () => {
  const { database, cleanup } = await testDatabase();
  try {
    await migrate(database);
    const clock = testClock();
    // An email and an address, as a login claims them; each success forgets the email's row.
    const s: Subject[] = [{ key: "email:same", free: 5 }, { key: "ip:127.0.0.1", free: 20 }];
    const succeed = async () => {
      const claim = await claimAttempt(database.db, s, clock.now());
      await settleAttempt(database.db, s, claim, clock.now(), true);
      await clearFailures(database.db, s[0]);
      return claim.wait;
    };
    // On PostgreSQL a claim that found its row deleted re-inserted it while holding the other
    // row's lock, and one round in a few deadlocked; on PGlite the rounds run one at a time.
    for (let round = 0; round < 15; round++) {
      const waits = await Promise.all(Array.from({ length: 4 }, succeed));
      assert.deepEqual(waits, [0, 0, 0, 0]);
    }
  } finally {
    await cleanup();
  }
});
