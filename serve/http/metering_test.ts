import assert from "node:assert/strict";
import { sql } from "kysely";
import { testDatabase } from "../../tests/helpers.ts";
import { join } from "node:path";
import { migrate, readMigrations } from "../stores/migrate.ts";
import { memoryLogger } from "./log.ts";
import { UsageMeter, type UsageRecord } from "./metering.ts";

/** usage_minutes as rows of plain values, in a stable order. */
async function minutes(db: Parameters<typeof migrate>[0]["db"]) {
  const { rows } = await sql<Record<string, unknown>>`SELECT key_id::text, contract_id::text,
      method, route, status, minute, requests::int AS requests, duration_ms_total
    FROM usage_minutes ORDER BY key_id, method, route, status, minute`.execute(db);
  return rows.map((r) => ({ ...r, minute: (r.minute as Date).toISOString() }));
}

/** The same counts, summed here from the records. */
function expected(records: UsageRecord[]) {
  const by = new Map<
    string,
    Record<string, unknown> & { requests: number; duration_ms_total: number }
  >();
  for (const r of records) {
    const minute = new Date(Math.floor(r.occurred_at.getTime() / 60_000) * 60_000).toISOString();
    const key = JSON.stringify([r.key_id, r.method, r.route, r.status, minute]);
    const g = by.get(key) ?? {
      key_id: r.key_id,
      contract_id: r.contract_id,
      method: r.method,
      route: r.route,
      status: r.status,
      minute,
      requests: 0,
      duration_ms_total: 0,
    };
    g.requests++;
    g.duration_ms_total += r.duration_ms;
    by.set(key, g);
  }
  return [...by.entries()].sort(([a], [b]) => {
    const [x, y] = [JSON.parse(a), JSON.parse(b)];
    for (let i = 0; i < x.length; i++) {
      if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return 0;
  }).map(([, g]) => g);
}

const odd = ['a"b\\c,{d}', "NULL", "", " spaced ", "x'y", "é—ü", "{}", "a\nb"];

/** 250 requests over two keys, two methods, odd route text, two statuses and three minutes. */
function records(offsetMs = 0): UsageRecord[] {
  return Array.from({ length: 250 }, (_, i) => ({
    account_id: "1",
    key_id: String(2 + (i % 2)),
    contract_id: "3",
    method: i % 3 === 0 ? "POST" : "GET",
    route: `/api/v1/${odd[i % odd.length]}`,
    status: i % 7 === 0 ? 429 : 200,
    duration_ms: 0.5 * (i % 5),
    occurred_at: new Date(Date.UTC(2026, 10, 25, 12, 0, 59) + offsetMs + i * 500),
  }));
}

Deno.test("metering: requests are counted per key, method, route, status and UTC minute, whatever the text holds", async () => {
  const { database, cleanup } = await testDatabase();
  try {
    await migrate(database);
    const meter = new UsageMeter(database.db, memoryLogger());
    const first = records();
    for (const r of first) meter.record(r);
    assert.equal(meter.pending, 250);
    await meter.flush();
    assert.equal(meter.pending, 0);
    assert.deepEqual(await minutes(database.db), expected(first));
    // A second flush into the same minutes adds to the rows already there.
    const second = records(30_000);
    for (const r of second) meter.record(r);
    await meter.flush();
    assert.deepEqual(await minutes(database.db), expected([...first, ...second]));
  } finally {
    await cleanup();
  }
});

Deno.test("metering: a failed write keeps its counts, and requests counted meanwhile add to them", async () => {
  const { database, cleanup } = await testDatabase();
  try {
    await migrate(database);
    const logger = memoryLogger();
    const meter = new UsageMeter(database.db, logger);
    const all = records();
    for (const r of all.slice(0, 100)) meter.record(r);
    await sql`ALTER TABLE usage_minutes RENAME TO usage_minutes_away`.execute(database.db);
    const failing = meter.flush();
    // Counted while the failing write runs: they land in the fresh map and are merged back.
    for (const r of all.slice(100, 150)) meter.record(r);
    await failing;
    assert.equal(meter.pending, 150);
    await sql`ALTER TABLE usage_minutes_away RENAME TO usage_minutes`.execute(database.db);
    for (const r of all.slice(150)) meter.record(r);
    await meter.flush();
    assert.equal(meter.pending, 0);
    assert.deepEqual(await minutes(database.db), expected(all));
  } finally {
    await cleanup();
  }
});

Deno.test("metering: the migration to usage_minutes keeps the requests recorded one by one and the refusals counted before", async () => {
  const { database, cleanup } = await testDatabase();
  const before = await Deno.makeTempDir({ prefix: "migrations-" });
  try {
    for (const m of await readMigrations()) {
      if (m.version < "20261126100000") {
        await Deno.writeTextFile(join(before, `${m.version}_${m.name}.sql`), m.sql);
      }
    }
    await migrate(database, before);
    // Two requests in the last minute of a UTC day, one in the next day's first, and 5 refusals
    // counted in the first minute.
    await sql`INSERT INTO usage_records (account_id, key_id, contract_id, method, route, status,
        duration_ms, request_id, occurred_at) VALUES
      (1, 2, 3, 'GET', '/api/v1/health', 200, 1.5, 'r1', '2026-11-25T23:59:00.000Z'),
      (1, 2, 3, 'GET', '/api/v1/health', 200, 2.5, 'r2', '2026-11-25T23:59:59.900Z'),
      (1, 2, 3, 'GET', '/api/v1/health', 200, 4, 'r3', '2026-11-26T00:00:00.000Z')`
      .execute(database.db);
    await sql`INSERT INTO usage_refusals (account_id, key_id, contract_id, method, route, status,
        minute, requests, duration_ms_total) VALUES
      (1, 2, 3, 'GET', '/api/v1/health', 429, '2026-11-25T23:59:00.000Z', 5, 0.5)`
      .execute(database.db);
    assert.deepEqual(await migrate(database), ["20261126100000"]);
    assert.deepEqual(await minutes(database.db), [
      {
        key_id: "2",
        contract_id: "3",
        method: "GET",
        route: "/api/v1/health",
        status: 200,
        minute: "2026-11-25T23:59:00.000Z",
        requests: 2,
        duration_ms_total: 4,
      },
      {
        key_id: "2",
        contract_id: "3",
        method: "GET",
        route: "/api/v1/health",
        status: 200,
        minute: "2026-11-26T00:00:00.000Z",
        requests: 1,
        duration_ms_total: 4,
      },
      {
        key_id: "2",
        contract_id: "3",
        method: "GET",
        route: "/api/v1/health",
        status: 429,
        minute: "2026-11-25T23:59:00.000Z",
        requests: 5,
        duration_ms_total: 0.5,
      },
    ]);
  } finally {
    await cleanup();
    await Deno.remove(before, { recursive: true });
  }
});
