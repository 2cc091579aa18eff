/**
 * Runtime limits, metering and restarts across instances: the per-minute rate and the monthly
 * quota shared by several apps over one database (a real server when TEST_DATABASE_URL is set,
 * PGlite otherwise), concurrency slots leased between LimitGates, and usage records and emails
 * that survive a restart. Time is an injected clock, so no window rolls mid-test.
 */
import assert from "node:assert/strict";
import { type Kysely, sql } from "kysely";
import {
  pgliteTestDatabase,
  serverTestDatabase,
  TEST_DATABASE_URL,
  testApp,
  testClock,
  type TestDatabase,
  testDatabase,
  tokenFromEmail,
  waitFor,
} from "./helpers.ts";
import { call, loginToken, PASSWORD, registerVerified, signUp, type TestApp } from "./platform.ts";
import { listNames, withTempDir } from "./fs.ts";
import {
  type Admission,
  type ContractLimits,
  LimitGate,
  nextLease,
  REFUSAL_MEMORY_MS,
} from "../serve/http/limits.ts";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
import { closePlatform } from "../serve/platform/mod.ts";
import { fileTransport } from "../serve/email/mailer.ts";
import { OutboxSender } from "../serve/email/outbox.ts";
import { memoryLogger } from "../serve/http/log.ts";
import type { DB } from "../serve/stores/schema.ts";

type Clock = ReturnType<typeof testClock>;

const HEALTH = "/api/v1/health";
const STATUS = "/api/v1/platform/rate-limit-status";
const MINUTE = 60_000;
/** testClock() starts at 2026-11-21T12:00:00Z: the month ends 9.5 days later. */
const START = new Date("2026-11-21T12:00:00.000Z");
const NEXT_MONTH = new Date("2026-12-01T00:00:00.000Z");
const SECONDS_TO_MONTH_END = (NEXT_MONTH.getTime() - START.getTime()) / 1000; // 820800
const NOVEMBER_SECONDS = 30 * 86_400;

/** Where the instances of a scenario run: how many apps, over which database. */
interface Setup {
  label: string;
  instances: string[];
  server: boolean;
}

const SETUPS: Setup[] = [
  { label: "two instances on one Postgres server", instances: ["a", "b"], server: true },
  { label: "one instance on PGlite", instances: ["a"], server: false },
  { label: "two instances sharing one PGlite", instances: ["a", "b"], server: false },
];

/** Runs fn with one app per instance id, all over one fresh database and one clock. */
async function withInstances(
  setup: Setup,
  env: Record<string, string>,
  fn: (apps: TestApp[], clock: Clock) => Promise<void>,
): Promise<void> {
  const shared: TestDatabase = setup.server
    ? await serverTestDatabase()
    : await pgliteTestDatabase();
  const clock = testClock();
  const apps: TestApp[] = [];
  try {
    for (const instanceId of setup.instances) {
      apps.push(
        await testApp({
          build: false,
          database: shared.database,
          env,
          clock: clock.now,
          instanceId,
        }),
      );
    }
    await fn(apps, clock);
  } finally {
    for (const app of apps) await app.cleanup();
    await shared.cleanup();
  }
}

/** n health calls at once with one key, spread round-robin over the apps. */
function burst(apps: TestApp[], key: string, n: number) {
  return Promise.all(
    Array.from(
      { length: n },
      (_, i) => call(apps[i % apps.length], "GET", HEALTH, { bearer: key }),
    ),
  );
}

/** n health calls one after another with one key, taking the apps in turn. */
async function inTurn(apps: TestApp[], key: string, n: number) {
  const responses = [];
  for (let i = 0; i < n; i++) {
    responses.push(await call(apps[i % apps.length], "GET", HEALTH, { bearer: key }));
  }
  return responses;
}

function repeat<T>(value: T, n: number): T[] {
  return Array.from({ length: n }, () => value);
}

/** The `r=` of one window in a RateLimit header. */
function remaining(response: { headers: Headers }, window: "minute" | "month"): number {
  const header = response.headers.get("ratelimit") ?? "";
  const match = header.match(new RegExp(`"${window}";r=(\\d+);t=\\d+`));
  assert.ok(match, `RateLimit header names the ${window} window: ${header}`);
  return Number(match[1]);
}

function statuses(responses: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

/** The only contract in the database, as the gate takes it. */
async function onlyContract(db: Kysely<DB>): Promise<ContractLimits> {
  const rows = await db.selectFrom("contracts")
    .select(["id", "rate_per_minute", "monthly_quota", "concurrency"]).execute();
  assert.equal(rows.length, 1, "one contract");
  return rows[0];
}

type Window = { limit: number; used: number; remaining: number; resets_at: string };

async function limitStatus(t: TestApp, token: string) {
  const response = await call(t, "GET", STATUS, { bearer: token });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body as unknown as {
    rate: Window & { window_start: string };
    quota: Window & { window_start: string };
    concurrency: { limit: number; in_use: number };
  };
}

for (const setup of SETUPS) {
  Deno.test({
    name: `rate limit: ${setup.label} admit exactly the per-minute limit, then the next minute`,
    ignore: setup.server && !TEST_DATABASE_URL,
    fn: () =>
      withInstances(
        setup,
        { BETA_RATE_PER_MINUTE: "10", BETA_CONCURRENCY: "100" },
        async (apps, clock) => {
          const { key, token } = await signUp(apps[0]);
          // In turn over the instances: the shared counter decides, request by request.
          const first = await inTurn(apps, key, 30);
          assert.deepEqual(first.map((r) => r.status), [...repeat(200, 10), ...repeat(429, 20)]);
          assert.deepEqual(
            first.slice(0, 10).map((r) => remaining(r, "minute")),
            [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
          );
          for (const refused of first.slice(10)) {
            assert.equal(refused.headers.get("content-type"), "application/problem+json");
            assert.equal(refused.body.code, "rate_limited");
            assert.equal(refused.body.limit, "rate");
            assert.match(refused.body.detail as string, /requests-per-minute limit/);
            assert.equal(refused.headers.get("retry-after"), "60");
            assert.equal(
              refused.headers.get("ratelimit-policy"),
              `"minute";q=10;w=60, "month";q=10000;w=${NOVEMBER_SECONDS}`,
            );
            assert.match(
              refused.headers.get("ratelimit")!,
              new RegExp(`^"minute";r=0;t=60, "month";r=\\d+;t=${SECONDS_TO_MONTH_END}$`),
            );
          }
          for (const app of apps) {
            const status = await limitStatus(app, token);
            assert.deepEqual(status.rate, {
              limit: 10,
              used: 10,
              remaining: 0,
              window_start: START.toISOString(),
              resets_at: new Date(START.getTime() + MINUTE).toISOString(),
            });
            assert.ok(status.quota.used >= 10 && status.quota.used <= 10_000);
          }

          clock.advance(MINUTE);
          // All at once: still exactly the limit in the new minute.
          const second = await burst(apps, key, 30);
          assert.deepEqual(statuses(second), { 200: 10, 429: 20 }, "a fresh minute");
          for (const refused of second.filter((r) => r.status === 429)) {
            assert.equal(refused.body.limit, "rate");
            assert.equal(refused.headers.get("retry-after"), "60");
          }
          const status = await limitStatus(apps.at(-1)!, token);
          assert.equal(status.rate.window_start, new Date(START.getTime() + MINUTE).toISOString());
          assert.equal(status.rate.used, 10);
          assert.equal(status.rate.remaining, 0);
        },
      ),
  });

  Deno.test({
    name: `monthly quota: ${setup.label} admit exactly the quota until the month ends`,
    ignore: setup.server && !TEST_DATABASE_URL,
    fn: () =>
      withInstances(
        setup,
        { BETA_MONTHLY_QUOTA: "7", BETA_RATE_PER_MINUTE: "1000", BETA_CONCURRENCY: "100" },
        async (apps, clock) => {
          const { key, token } = await signUp(apps[0]);
          const first = await inTurn(apps, key, 12);
          assert.deepEqual(first.map((r) => r.status), [...repeat(200, 7), ...repeat(429, 5)]);
          assert.deepEqual(first.slice(0, 7).map((r) => remaining(r, "month")), [
            6,
            5,
            4,
            3,
            2,
            1,
            0,
          ]);
          for (const refused of first.slice(7)) {
            assert.equal(refused.body.code, "rate_limited");
            assert.equal(refused.body.limit, "quota");
            assert.match(refused.body.detail as string, /monthly request quota/);
            assert.equal(refused.headers.get("retry-after"), String(SECONDS_TO_MONTH_END));
            assert.match(
              refused.headers.get("ratelimit")!,
              new RegExp(`, "month";r=0;t=${SECONDS_TO_MONTH_END}$`),
            );
            assert.equal(
              refused.headers.get("ratelimit-policy"),
              `"minute";q=1000;w=60, "month";q=7;w=${NOVEMBER_SECONDS}`,
            );
          }
          const status = await limitStatus(apps[0], token);
          assert.deepEqual(status.quota, {
            limit: 7,
            used: 7,
            remaining: 0,
            window_start: "2026-11-01T00:00:00.000Z",
            resets_at: NEXT_MONTH.toISOString(),
          });

          clock.advance(MINUTE); // a new minute is not a new month
          const nextMinute = await inTurn(apps, key, 4);
          assert.deepEqual(nextMinute.map((r) => r.body.limit), repeat("quota", 4));

          clock.advance(NEXT_MONTH.getTime() - START.getTime() - MINUTE);
          // All at once: still exactly the quota in the new month.
          const december = await burst(apps, key, 20);
          assert.deepEqual(statuses(december), { 200: 7, 429: 13 }, "a fresh month");
          for (const refused of december.filter((r) => r.status === 429)) {
            assert.equal(refused.body.limit, "quota");
            assert.equal(refused.headers.get("retry-after"), String(31 * 86_400));
          }
          // Ten days on, the first management token has expired: log in again.
          const later = await limitStatus(apps.at(-1)!, await loginToken(apps[0]));
          assert.equal(later.quota.window_start, NEXT_MONTH.toISOString());
          assert.equal(later.quota.used, 7);
          assert.equal(later.quota.remaining, 0);
          assert.equal(later.quota.resets_at, "2027-01-01T00:00:00.000Z");
        },
      ),
  });
}

Deno.test("concurrency: the app's gate holds two slots, the third request is refused", async () => {
  const clock = testClock();
  const t = await testApp({ build: false, clock: clock.now, env: { BETA_CONCURRENCY: "2" } });
  try {
    const { key, token } = await signUp(t);
    const contract = await onlyContract(t.database.db);
    assert.equal(contract.concurrency, 2);
    const first = await t.platform.limits.admit(contract);
    const second = await t.platform.limits.admit(contract);
    assert.ok(first.ok && second.ok);
    const third = await t.platform.limits.admit(contract);
    assert.ok(!third.ok);
    assert.equal(third.reason, "concurrency");
    assert.equal(third.retryAfterSeconds, 1);
    assert.deepEqual((await limitStatus(t, token)).concurrency, { limit: 2, in_use: 2 });

    // The HTTP path goes through the same gate: a third request in flight is 429.
    const refused = await call(t, "GET", HEALTH, { bearer: key });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.limit, "concurrency");
    assert.match(refused.body.detail as string, /concurrent requests/);
    assert.equal(refused.headers.get("retry-after"), "1");

    first.release();
    const fourth = await t.platform.limits.admit(contract);
    assert.ok(fourth.ok, "a released slot is reused");
    second.release();
    fourth.release();
    assert.equal((await call(t, "GET", HEALTH, { bearer: key })).status, 200);
  } finally {
    await t.cleanup();
  }
});

/** A migrated database holding one account with a Beta contract, and two gates over it. */
async function withTwoGates(
  env: Record<string, string>,
  fn: (
    gates: { a: LimitGate; b: LimitGate },
    contract: ContractLimits,
    t: TestApp,
    clock: Clock,
  ) => Promise<void>,
): Promise<void> {
  const clock = testClock();
  const t = await testApp({ build: false, clock: clock.now, env });
  const a = new LimitGate(t.database.db, "gate-a", clock.now);
  const b = new LimitGate(t.database.db, "gate-b", clock.now);
  try {
    await registerVerified(t);
    await fn({ a, b }, await onlyContract(t.database.db), t, clock);
  } finally {
    await a.close();
    await b.close();
    await t.cleanup();
  }
}

Deno.test("concurrency: slots one instance holds block the other until handed back", () =>
  withTwoGates({ BETA_CONCURRENCY: "2" }, async ({ a, b }, contract) => {
    const held = [await a.admit(contract), await a.admit(contract)];
    assert.ok(held.every((h) => h.ok));
    const refused = await b.admit(contract);
    assert.ok(!refused.ok);
    assert.equal(refused.reason, "concurrency");
    assert.equal((await b.status(contract)).concurrency.in_use, 2, "B sees A's slots");

    for (const h of held) if (h.ok) h.release();
    // Idle slots go back to the database about a second after the last release.
    const admitted: Admission[] = [];
    await waitFor(async () => {
      const attempt = await b.admit(contract);
      if (attempt.ok) admitted.push(attempt);
      return attempt.ok;
    }, 5000);
    admitted.push(await b.admit(contract));
    assert.ok(admitted.every((h) => h.ok), "both slots are free for B");
    assert.ok(!(await a.admit(contract)).ok, "now A is the one refused");
    for (const h of admitted) if (h.ok) h.release();
  }));

Deno.test("concurrency: close() hands an instance's slots back at once", () =>
  withTwoGates({ BETA_CONCURRENCY: "2" }, async ({ a, b }, contract, t) => {
    assert.ok((await a.admit(contract)).ok);
    assert.ok((await a.admit(contract)).ok);
    assert.ok(!(await b.admit(contract)).ok);
    await a.close(); // a shutdown with requests still in flight
    await pause(REFUSAL_MEMORY_MS); // b just heard "full"; it asks again after this long
    const rows = await t.database.db.selectFrom("concurrency_leases").selectAll()
      .where("instance_id", "=", "gate-a").execute();
    assert.deepEqual(rows, []);
    const first = await b.admit(contract);
    const second = await b.admit(contract);
    assert.ok(first.ok && second.ok);
    first.release();
    second.release();
  }));

Deno.test("concurrency: a crashed instance's lease blocks until it expires, then not at all", () =>
  withTwoGates({ BETA_CONCURRENCY: "2" }, async ({ a }, contract, t, clock) => {
    const crashed = (expires: Date) =>
      t.database.db.insertInto("concurrency_leases").values({
        contract_id: contract.id,
        instance_id: "crashed",
        slots: 2,
        expires_at: expires,
      }).onConflict((oc) =>
        oc.columns(["contract_id", "instance_id"]).doUpdateSet({ expires_at: expires })
      ).execute();

    // Still live (it would have been renewed 10 s ago): its slots count.
    await crashed(new Date(clock.now().getTime() + 20_000));
    const blocked = await a.admit(contract);
    assert.ok(!blocked.ok);
    assert.equal(blocked.reason, "concurrency");

    clock.advance(20_001); // the lease ran out: nobody renewed it
    await pause(REFUSAL_MEMORY_MS);
    const first = await a.admit(contract);
    const second = await a.admit(contract);
    assert.ok(first.ok && second.ok, "an expired lease does not hold slots");
    assert.ok(!(await a.admit(contract)).ok, "the limit still holds");
    first.release();
    second.release();

    // A lease that had already expired before this instance ever looked.
    await a.close();
    await crashed(new Date(clock.now().getTime() - 1000));
    const fresh = new LimitGate(t.database.db, "gate-c", clock.now);
    try {
      const one = await fresh.admit(contract);
      const two = await fresh.admit(contract);
      assert.ok(one.ok && two.ok);
      one.release();
      two.release();
    } finally {
      await fresh.close();
    }
  }));

Deno.test({
  // A request whose claim was won but spent by others before it resumed claims again; only
  // a full counter refuses. (Regression: such requests used to be refused early.)
  name: "rate limit: a burst of exactly the limit on a fresh instance is admitted in full",
  fn: async () => {
    const clock = testClock();
    const env = { BETA_RATE_PER_MINUTE: "10", BETA_CONCURRENCY: "100" };
    const t = await testApp({ build: false, clock: clock.now, env });
    try {
      await registerVerified(t);
      const contract = await onlyContract(t.database.db);
      const spurious: string[] = [];
      for (let round = 0; round < 20; round++) {
        clock.advance(MINUTE); // a fresh window, and a fresh instance to lease slots
        const gate = new LimitGate(t.database.db, `burst-${round}`, clock.now);
        try {
          const results = await Promise.all(repeat(contract, 10).map((c) => gate.admit(c)));
          for (const r of results) {
            if (r.ok) r.release();
            else spurious.push(`round ${round}: ${r.reason} with ${r.minute.used}/10 used`);
          }
        } finally {
          await gate.close();
        }
      }
      assert.deepEqual(spurious, []);
    } finally {
      await t.cleanup();
    }
  },
});

Deno.test("claim sizes: doubled while busy, kept under a steady load, 1 for a quiet contract", () => {
  // Claims a steady load of `perSecond` makes in a minute, each lasting until it is spent.
  const claimsPerMinute = (perSecond: number, limit: number) => {
    let lease = 1;
    let claims = 0;
    for (let t = 0, last = -Infinity; t < MINUTE; claims++) {
      lease = nextLease(lease, t - last, limit);
      last = t;
      t += lease * 1000 / perSecond;
    }
    return { claims, lease };
  };
  // 3,500 a second: a full claim (1000) lasts 286 ms; the old rule went back to 1 after any
  // wait over 250 ms and made about 25 claims a second.
  const steady = claimsPerMinute(3_500, 10_000_000);
  assert.ok(steady.claims <= 6 * 60, `${steady.claims} claims in a minute`);
  assert.ok(steady.lease >= 800, `claims of ${steady.lease}`);
  // Busy: spent within 250 ms, so doubled, up to max(1, limit/100) and at most 1000.
  assert.equal(nextLease(64, 10, 10_000_000), 128);
  assert.equal(nextLease(800, 10, 10_000_000), 1000);
  assert.equal(nextLease(64, 10, 5_000), 50);
  assert.equal(nextLease(1, 0, 60), 1, "a limit under 200 claims one at a time");
  // Quiet: a request every second claims exactly one.
  assert.deepEqual(claimsPerMinute(1, 10_000_000), { claims: 60, lease: 1 });
  assert.equal(nextLease(1000, 60_000, 10_000_000), 4, "a minute idle: down to what 250 ms took");
});

Deno.test("rate limit: a new minute starts with the claim size the last one ended with", async () => {
  const clock = testClock("2026-11-21T12:00:59.625Z");
  const t = await testApp({ build: false, clock: clock.now, env: { BETA_CONCURRENCY: "100" } });
  const gate = new LimitGate(t.database.db, "carry", clock.now);
  try {
    await registerVerified(t);
    const contract = {
      ...await onlyContract(t.database.db),
      rate_per_minute: 1_000_000,
      monthly_quota: 100_000_000,
    };
    // 8,000 a second to the end of the minute: claims double to 1000 (the most for a limit of
    // 1,000,000), each spent within 250 ms; the clock ends on the next minute's first ms.
    for (let i = 0; i < 3_000; i++) {
      const admitted = await gate.admit(contract);
      assert.ok(admitted.ok);
      admitted.release();
      clock.advance(0.125);
    }
    const first = await gate.admit(contract);
    assert.ok(first.ok);
    first.release();
    // The shared counter holds what was claimed: one claim, of the size carried over.
    const claimed = (start: string) =>
      t.database.db.selectFrom("rate_counters").select("used")
        .where("contract_id", "=", contract.id).where("window_kind", "=", "minute")
        .where("window_start", "=", new Date(start)).executeTakeFirstOrThrow()
        .then((row) => Number(row.used));
    assert.equal(await claimed("2026-11-21T12:01:00.000Z"), 1000, "a full first claim");

    // A quiet contract: a request every 2 s claims one at a time, so the count is exact.
    clock.advance(MINUTE); // the minute after: the counter starts at 0
    for (let i = 0; i < 20; i++) {
      clock.advance(2_000);
      const admitted = await gate.admit(contract);
      assert.ok(admitted.ok);
      admitted.release();
    }
    assert.equal(await claimed("2026-11-21T12:02:00.000Z"), 20, "exact while quiet");
  } finally {
    await gate.close();
    await t.cleanup();
  }
});

/** Runs fn with a fresh database (the server when TEST_DATABASE_URL is set) and one clock. */
async function withSharedDatabase(
  fn: (shared: TestDatabase, clock: Clock) => Promise<void>,
): Promise<void> {
  const shared = await testDatabase();
  try {
    await fn(shared, testClock());
  } finally {
    await shared.cleanup();
  }
}

/** Metered requests written to usage_minutes, refused ones too. */
function countUsage(db: Kysely<DB>): Promise<number> {
  return db.selectFrom("usage_minutes").select((eb) => eb.fn.sum<string>("requests").as("n"))
    .executeTakeFirstOrThrow().then((row) => Number(row.n ?? 0));
}

Deno.test("metering: records still buffered at shutdown are written, and a new instance sees them", () =>
  withSharedDatabase(async (shared, clock) => {
    const env = { USAGE_FLUSH_MS: "60000" }; // the timer never fires during the test
    const opts = { build: false, database: shared.database, env, clock: clock.now };
    const N = 6;
    let token: string;
    const a = await testApp({ ...opts, instanceId: "a" });
    try {
      const signed = await signUp(a);
      token = signed.token;
      for (let i = 0; i < N; i++) {
        assert.equal((await call(a, "GET", HEALTH, { bearer: signed.key })).status, 200);
      }
      assert.equal(a.platform.meter.pending, N);
      assert.equal(await countUsage(shared.database.db), 0, "nothing written before shutdown");
      await closePlatform(a.platform);
      assert.equal(await countUsage(shared.database.db), N, "close() flushed every record");
      assert.equal(a.platform.meter.pending, 0);
    } finally {
      await a.cleanup();
    }

    const b = await testApp({ ...opts, instanceId: "b" });
    try {
      const daily = await call(b, "GET", "/api/v1/platform/usage/daily", { bearer: token });
      assert.equal(daily.status, 200, JSON.stringify(daily.body));
      assert.equal(daily.body.total_requests, N);
      const groups = daily.body.by_route as unknown as Record<string, unknown>[];
      assert.deepEqual(
        groups.map(({ method, route, status, requests }) => ({ method, route, status, requests })),
        [{ method: "GET", route: HEALTH, status: 200, requests: N }],
      );
    } finally {
      await b.cleanup();
    }
  }));

/** Quoted-printable body text back to a string (soft breaks joined, =XX decoded). */
Deno.test("outbox: an email queued before a restart is delivered by the next instance", () =>
  withSharedDatabase(async (shared, clock) => {
    const opts = { build: false, database: shared.database, clock: clock.now };
    const a = await testApp({ ...opts, instanceId: "a" });
    try {
      const registered = await call(a, "POST", "/api/v1/platform/register", {
        body: {
          email: "ada@example.com",
          password: PASSWORD,
          full_name: "Ada Lovelace",
          company_name: "Engines Ltd",
        },
      });
      assert.equal(registered.status, 200);
    } finally {
      await a.cleanup(); // instance A stops; no sender ever ran
    }
    const queued = await shared.database.db.selectFrom("email_outbox").selectAll().execute();
    assert.equal(queued.length, 1);
    assert.equal(queued[0].sent_at, null);

    const b = await testApp({ ...opts, instanceId: "b" });
    const logger = memoryLogger();
    try {
      await withTempDir("test-limits-eml-", async (dir) => {
        const transport = fileTransport(dir, logger);
        const sender = new OutboxSender({
          db: b.database.db,
          transport,
          outboxKey: b.platform.keys.outboxKey,
          from: "Occupation API <noreply@platform.example>",
          logger,
          clock: clock.now,
        });
        try {
          assert.deepEqual(await sender.deliverDue(), { sent: 1, failed: 0 });
          assert.deepEqual(await sender.deliverDue(), { sent: 0, failed: 0 }, "sent once only");
        } finally {
          await sender.stop();
          await transport.close();
        }
        const names = await listNames(dir);
        assert.equal(names.length, 1);
        assert.match(names[0], /-verify_email-[0-9a-f]{8}\.eml$/);
        const raw = await Deno.readTextFile(`${dir}/${names[0]}`);
        assert.match(raw, /^To: ada@example\.com\r$/m);
        assert.match(raw, /^Content-Transfer-Encoding: 8bit\r$/m, "the body is plain text");
        const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
        assert.match(body, /https:\/\/api\.example\.test\/console\/verify\?token=/);
        const verified = await call(
          b,
          "GET",
          `/api/v1/platform/verify-email?token=${encodeURIComponent(tokenFromEmail(body))}`,
        );
        assert.equal(verified.body.status, "verified", "the link works on the new instance");
      });
      const sent = await b.database.db.selectFrom("email_outbox").selectAll().execute();
      assert.equal(sent.length, 1);
      assert.notEqual(sent[0].sent_at, null);
      assert.equal(sent[0].body_encrypted, null);
    } finally {
      await b.cleanup();
    }
  }));

Deno.test("metering: route template, method, status (200 and 429), key and contract", async () => {
  const clock = testClock();
  const t = await testApp({
    build: false,
    clock: clock.now,
    env: { BETA_RATE_PER_MINUTE: "2", USAGE_FLUSH_MS: "60000" },
  });
  try {
    const { key, keyId } = await signUp(t);
    const responses = [];
    for (let i = 0; i < 3; i++) responses.push(await call(t, "GET", HEALTH, { bearer: key }));
    assert.deepEqual(responses.map((r) => r.status), [200, 200, 429]);
    // Not metered: there is no key to charge it to.
    assert.equal((await call(t, "GET", HEALTH)).status, 401);
    await t.platform.meter.flush();

    const contract = await onlyContract(t.database.db);
    const account = await t.database.db.selectFrom("accounts").select("id")
      .executeTakeFirstOrThrow();
    // Each status is counted for its key, contract, method, route and minute.
    const rows = await t.database.db.selectFrom("usage_minutes").selectAll().orderBy("status")
      .execute();
    assert.deepEqual(
      rows.map((r) => ({
        // BIGINT ids: strings from pg, numbers from PGlite.
        account_id: String(r.account_id),
        key_id: String(r.key_id),
        contract_id: String(r.contract_id),
        method: r.method,
        route: r.route,
        status: r.status,
        minute: r.minute.toISOString(),
        requests: Number(r.requests),
      })),
      [[200, 2], [429, 1]].map(([status, requests]) => ({
        account_id: String(account.id),
        key_id: String(keyId),
        contract_id: String(contract.id),
        method: "GET",
        route: HEALTH,
        status,
        minute: START.toISOString(),
        requests,
      })),
    );
    for (const row of rows) assert.ok(row.duration_ms_total >= 0);
    const key_row = await t.database.db.selectFrom("api_keys").select("last_used_at")
      .executeTakeFirstOrThrow();
    assert.equal(key_row.last_used_at?.toISOString(), START.toISOString());
  } finally {
    await t.cleanup();
  }
});

Deno.test("metering: a flood of refusals is counted in a few rows, and usage stays exact", () =>
  withSharedDatabase(async (shared, clock) => {
    const t = await testApp({
      build: false,
      database: shared.database,
      clock: clock.now,
      env: { BETA_RATE_PER_MINUTE: "2", USAGE_FLUSH_MS: "60000" },
    });
    try {
      const { key, token } = await signUp(t);
      const health = () => call(t, "GET", HEALTH, { bearer: key });
      const seen: number[] = [];
      // Minute one: 2 admitted, then 300 refused, with a flush halfway (the upsert adds up).
      for (let i = 0; i < 152; i++) seen.push((await health()).status);
      await t.platform.meter.flush();
      for (let i = 0; i < 150; i++) seen.push((await health()).status);
      await t.platform.meter.flush();
      // Minute two: 2 admitted, 200 refused.
      clock.advance(MINUTE);
      for (let i = 0; i < 202; i++) seen.push((await health()).status);
      assert.deepEqual(statuses(seen.map((status) => ({ status }))), { 200: 4, 429: 500 });

      const daily = await call(t, "GET", "/api/v1/platform/usage/daily", { bearer: token });
      assert.equal(daily.status, 200, JSON.stringify(daily.body));
      assert.equal(daily.body.total_requests, 504);
      const groups = daily.body.by_route as unknown as Record<string, unknown>[];
      assert.deepEqual(
        groups.map(({ method, route, status, requests }) => ({ method, route, status, requests })),
        [
          { method: "GET", route: HEALTH, status: 200, requests: 4 },
          { method: "GET", route: HEALTH, status: 429, requests: 500 },
        ],
      );
      for (const g of groups) assert.ok(Number(g.avg_duration_ms) >= 0);
      const history = await call(t, "GET", "/api/v1/platform/usage", { bearer: token });
      assert.equal(history.body.total_requests, 504);

      const db = shared.database.db;
      assert.equal(await countUsage(db), 504);
      const counted = await db.selectFrom("usage_minutes").select(["status", "minute", "requests"])
        .orderBy("minute").orderBy("status").execute();
      const second = new Date(START.getTime() + MINUTE).toISOString();
      assert.deepEqual(
        counted.map((r) => [r.status, r.minute.toISOString(), Number(r.requests)]),
        [
          [200, START.toISOString(), 2],
          [429, START.toISOString(), 300],
          [200, second, 2],
          [429, second, 200],
        ],
        "one row per key, route, status and minute",
      );
    } finally {
      await t.cleanup();
    }
  }));

Deno.test("concurrency: a claim that fails in the database gives its slot back", async () => {
  const t = await testApp({ build: false, env: { BETA_CONCURRENCY: "1" } });
  const gate = new LimitGate(t.database.db, "failing-claims", t.platform.clock);
  try {
    await registerVerified(t);
    const contract = await onlyContract(t.database.db);
    await sql`ALTER TABLE rate_counters RENAME TO rate_counters_away`.execute(t.database.db);
    await assert.rejects(gate.admit(contract));
    await sql`ALTER TABLE rate_counters_away RENAME TO rate_counters`.execute(t.database.db);
    const admitted = await gate.admit(contract);
    assert.ok(admitted.ok, "the only slot is free again");
    admitted.release();
  } finally {
    await gate.close();
    await t.cleanup();
  }
});

Deno.test("concurrency: a lowered limit holds at once, even with slots leased before", async () => {
  const t = await testApp({ build: false, env: { BETA_CONCURRENCY: "4" } });
  const gate = new LimitGate(t.database.db, "lowered", t.platform.clock);
  try {
    await registerVerified(t);
    const contract = await onlyContract(t.database.db);
    const held = await Promise.all(repeat(contract, 4).map((c) => gate.admit(c)));
    assert.ok(held.every((a) => a.ok));
    for (const a of held) if (a.ok) a.release();
    const lowered = { ...contract, concurrency: 1 };
    const first = await gate.admit(lowered);
    const second = await gate.admit(lowered);
    assert.ok(first.ok);
    assert.equal(second.ok, false);
    if (first.ok) first.release();
  } finally {
    await gate.close();
    await t.cleanup();
  }
});

Deno.test("concurrency: right after a refusal, more refusals do not go to the database", async () => {
  const t = await testApp({ build: false, env: { BETA_CONCURRENCY: "1" } });
  const db = t.database.db;
  const gate = new LimitGate(db, "flooded", t.platform.clock);
  try {
    await registerVerified(t);
    const contract = await onlyContract(db);
    const held = await gate.admit(contract);
    assert.ok(held.ok);
    const other = new LimitGate(db, "other", t.platform.clock);
    try {
      assert.equal((await other.admit(contract)).ok, false);
      let transactions = 0;
      const transaction = db.transaction.bind(db);
      Object.assign(db, { transaction: () => (transactions++, transaction()) });
      for (let i = 0; i < 50; i++) assert.equal((await other.admit(contract)).ok, false);
      Object.assign(db, { transaction });
      assert.equal(transactions, 0);
    } finally {
      await other.close();
    }
    held.release();
  } finally {
    await gate.close();
    await t.cleanup();
  }
});

Deno.test("concurrency: a lowered limit holds across instances that held slots before", () =>
  withSharedDatabase(async (shared, clock) => {
    const t = await testApp({ build: false, database: shared.database, clock: clock.now });
    const a = new LimitGate(shared.database.db, "low-a", clock.now);
    const b = new LimitGate(shared.database.db, "low-b", clock.now);
    try {
      await registerVerified(t);
      const contract = { ...(await onlyContract(shared.database.db)), concurrency: 4 };
      const held = [await a.admit(contract), await a.admit(contract), await b.admit(contract)];
      held.push(await b.admit(contract));
      assert.ok(held.every((h) => h.ok));
      for (const h of held) if (h.ok) h.release();
      const lowered = { ...contract, concurrency: 2 };
      const now = [await a.admit(lowered), await b.admit(lowered), await a.admit(lowered)];
      now.push(await b.admit(lowered));
      assert.equal(now.filter((n) => n.ok).length, 2, "two in flight across both instances");
      for (const n of now) if (n.ok) n.release();
    } finally {
      await a.close();
      await b.close();
      await t.cleanup();
    }
  }));
