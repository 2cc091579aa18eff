/**
 * The purge of lapsed registrations, expired email tokens and ended login-throttle entries:
 * what it removes and keeps, one run at a time across replicas, the server's timer (one JSON
 * log line) and `deno task admin purge`. On PGlite, or the server when TEST_DATABASE_URL is set.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { openPglite, openPostgres } from "../serve/stores/postgres.ts";
import { migrate } from "../serve/stores/migrate.ts";
import { memoryLogger } from "../serve/http/log.ts";
import { purge, PurgeTimer } from "../serve/platform/purge.ts";
import { parseAdminArgs, runAdminCommand } from "../serve/platform/admin.ts";
import { TEST_DATABASE_URL, testApp, testClock, waitFor } from "./helpers.ts";
import { call, PASSWORD, registerVerified, type TestApp } from "./platform.ts";
import { withTempDir } from "./fs.ts";

const DAY = 86_400_000;
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Registers without verifying. */
async function registerPending(t: TestApp, email: string): Promise<void> {
  const response = await call(t, "POST", "/api/v1/platform/register", {
    body: { email, password: PASSWORD, full_name: "Pat Pending", company_name: "Waiting Ltd" },
  });
  assert.equal(response.status, 200);
  await t.platform.tasks.drain();
}

async function emails(t: TestApp): Promise<string[]> {
  const rows = await t.database.db.selectFrom("accounts").select("email").orderBy("email")
    .execute();
  return rows.map((r) => r.email);
}

/** Day 0: a registration left unverified, a verified account with a reset link, a failed login;
 * day 9: a new registration. */
async function withHistory(fn: (t: TestApp, now: Date) => Promise<void>): Promise<void> {
  const clock = testClock();
  const t = await testApp({ build: false, clock: clock.now, env: { PURGE_INTERVAL_MS: "0" } });
  try {
    await registerPending(t, "lapsed@example.com");
    const ada = await registerVerified(t, "ada@example.com");
    await call(t, "POST", "/api/v1/platform/forgot-password", { body: { email: ada } });
    const failed = await call(t, "POST", "/api/v1/platform/login", {
      body: { email: ada, password: "wrong-password-123" },
    });
    assert.equal(failed.status, 401);
    clock.advance(9 * DAY);
    await registerPending(t, "recent@example.com");
    // A subject still locked keeps its entry, however old its last failure.
    await t.database.db.insertInto("login_throttle").values({
      subject: "address:locked",
      failures: 40,
      last_failure_at: new Date(clock.now().getTime() - 2 * DAY),
      locked_until: new Date(clock.now().getTime() + 60_000),
    }).execute();
    await fn(t, clock.now());
  } finally {
    await t.cleanup();
  }
}

Deno.test("purge: removes lapsed registrations and expired tokens and throttle entries only", () =>
  withHistory(async (t, now) => {
    const db = t.database.db;
    const throttleBefore = await db.selectFrom("login_throttle").selectAll().execute();
    const old = (r: { last_failure_at: Date }) => r.last_failure_at.getTime() < now.getTime() - DAY;
    assert.ok(
      throttleBefore.filter(old).length >= 3,
      "day-0 entries (a failed login) and the locked one",
    );

    const outcome = await purge(db, now, { afterDays: 7 });
    assert.ok(outcome.ran);
    assert.deepEqual(await emails(t), ["ada@example.com", "recent@example.com"]);
    const tokens = await db.selectFrom("email_tokens as t").innerJoin(
      "accounts as a",
      "a.id",
      "t.account_id",
    )
      .select(["a.email", "t.purpose"]).execute();
    assert.deepEqual(tokens, [{ email: "recent@example.com", purpose: "verify_email" }]);
    const throttleAfter = await db.selectFrom("login_throttle").selectAll().execute();
    assert.deepEqual(throttleAfter.filter(old).map((r) => r.subject), ["address:locked"]);
    assert.deepEqual(outcome.removed, {
      lapsed_registrations: 1,
      email_tokens: 2, // ada's verification and reset tokens (lapsed@'s went with its account)
      login_throttle: throttleBefore.length - throttleAfter.length,
    });

    const again = await purge(db, now, { afterDays: 7 });
    assert.ok(again.ran);
    assert.deepEqual(again.removed, {
      lapsed_registrations: 0,
      email_tokens: 0,
      login_throttle: 0,
    });
    // The lapsed address registers afresh.
    await registerPending(t, "lapsed@example.com");
    assert.ok((await emails(t)).includes("lapsed@example.com"));
  }));

Deno.test("purge: nothing within the grace period is removed", () =>
  withHistory(async (t, now) => {
    const outcome = await purge(t.database.db, now, { afterDays: 30 });
    assert.ok(outcome.ran);
    assert.equal(outcome.removed.lapsed_registrations, 0);
    assert.equal(outcome.removed.email_tokens, 0);
    assert.equal((await emails(t)).length, 3);
  }));

Deno.test("purge timer: one JSON line with counts; a second replica does not repeat it", () =>
  withHistory(async (t, now) => {
    const clock = () => now;
    const a = memoryLogger();
    const b = memoryLogger();
    const options = { intervalMs: 3_600_000, afterDays: 7, clock };
    const first = new PurgeTimer(t.database.db, a, options);
    const second = new PurgeTimer(t.database.db, b, options);
    first.start(5);
    await waitFor(() => a.lines.some((l) => l.msg === "purge" || l.msg === "purge failed"));
    await first.stop();
    const line = a.lines.find((l) => l.msg === "purge")!;
    assert.equal(line.level, "info");
    assert.equal(line.lapsed_registrations, 1);
    assert.equal(line.email_tokens, 2);
    assert.equal(typeof line.login_throttle, "number");
    assert.equal(typeof line.duration_ms, "number");
    await second.runOnce();
    assert.deepEqual(b.lines.map((l) => [l.msg, l.reason]), [["purge skipped", "ran_recently"]]);
    const run = await t.database.db.selectFrom("maintenance_runs").selectAll().execute();
    assert.equal(run.length, 1);
    assert.equal(run[0].last_run_at.toISOString(), now.toISOString());
    // An interval of 0 never starts a timer.
    const off = memoryLogger();
    const disabled = new PurgeTimer(t.database.db, off, { ...options, intervalMs: 0 });
    disabled.start(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await disabled.stop();
    assert.deepEqual(off.lines, []);
  }));

Deno.test({
  name: "purge: while another connection runs it, a purge is refused, not repeated",
  ignore: !TEST_DATABASE_URL,
  async fn() {
    const clock = testClock();
    const t = await testApp({ build: false, clock: clock.now });
    try {
      // The same database: the test app's, reached through a second pool.
      const url = new URL(TEST_DATABASE_URL!);
      const name = await sql<{ db: string }>`SELECT current_database() AS db`.execute(
        t.database.db,
      );
      url.pathname = `/${name.rows[0].db}`;
      const holder = openPostgres(url.toString(), 1);
      try {
        let release!: () => void;
        const held = new Promise<void>((resolve) => release = resolve);
        let locked!: () => void;
        const isLocked = new Promise<void>((resolve) => locked = resolve);
        const holding = holder.db.transaction().execute(async (trx) => {
          await sql`SELECT pg_advisory_xact_lock(727002)`.execute(trx);
          locked();
          await held;
        });
        await isLocked;
        const outcome = await purge(t.database.db, clock.now(), { afterDays: 7 });
        assert.deepEqual(outcome, { ran: false, reason: "running_elsewhere" });
        await assert.rejects(
          runAdminCommand(t.database.db, { kind: "purge", afterDays: null }, clock.now()),
          /a purge is running elsewhere/,
        );
        release();
        await holding;
        assert.ok((await purge(t.database.db, clock.now(), { afterDays: 7 })).ran);
      } finally {
        await holder.close();
      }
    } finally {
      await t.cleanup();
    }
  },
});

Deno.test("admin purge: parses --after-days, and the CLI prints what it removed", async () => {
  assert.deepEqual(parseAdminArgs(["purge"]), { kind: "purge", afterDays: null });
  assert.deepEqual(parseAdminArgs(["purge", "--after-days=3"]), { kind: "purge", afterDays: 3 });
  for (const bad of [["purge", "--after-days", "0"], ["purge", "--after-days", "1.5"]]) {
    assert.throws(() => parseAdminArgs(bad), /--after-days must be an integer from 1 to 3650/);
  }
  assert.throws(() => parseAdminArgs(["purge", "--email", "a@example.com"]), /unknown option/);

  await withTempDir("test-purge-cli-", async (dir) => {
    const database = await openPglite(dir);
    try {
      await migrate(database);
      const longAgo = new Date(Date.now() - 30 * DAY);
      const account = await database.db.insertInto("accounts").values({
        email: "gone@example.com",
        email_key: "gone@example.com",
        password_hash: "x",
        full_name: "G",
        company_name: "G",
        status: "pending_verification",
        created_at: longAgo,
      }).returning("id").executeTakeFirstOrThrow();
      await database.db.insertInto("email_tokens").values({
        account_id: account.id,
        purpose: "verify_email",
        token_hash: "h",
        created_at: longAgo,
        expires_at: new Date(longAgo.getTime() + DAY),
      }).execute();
    } finally {
      await database.close();
    }
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "serve/admin.ts", "purge"],
      env: { DATA_DIR: dir, DATABASE_URL: "" },
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    const printed = JSON.parse(new TextDecoder().decode(output.stdout));
    assert.equal(printed.command, "purge");
    assert.equal(printed.after_days, 7);
    assert.deepEqual(printed.removed, {
      lapsed_registrations: 1,
      email_tokens: 0,
      login_throttle: 0,
    });
  });
});
