import assert from "node:assert/strict";
import { sql } from "kysely";
import { testDatabase } from "../../tests/helpers.ts";
import { migrate } from "../stores/migrate.ts";
import { memoryLogger } from "./log.ts";
import { UsageMeter, type UsageRecord } from "./metering.ts";

Deno.test("metering: every record is written as it was, in batches, whatever its text holds", async () => {
  const { database, cleanup } = await testDatabase();
  try {
    await migrate(database);
    const meter = new UsageMeter(database.db, memoryLogger());
    // Text that array literals must quote or escape, and more records than one batch holds.
    const odd = ['a"b\\c,{d}', "NULL", "", " spaced ", "x'y", "é—ü", "{}", "a\nb"];
    const records: UsageRecord[] = Array.from({ length: 250 }, (_, i) => ({
      account_id: "1",
      key_id: String(2 + (i % 2)),
      contract_id: "3",
      method: i % 3 === 0 ? "POST" : "GET",
      route: "/api/v1/occupation/{onet_code}",
      status: 200,
      duration_ms: 1.5 + i,
      request_id: `${odd[i % odd.length]}#${i}`,
      occurred_at: new Date(Date.UTC(2026, 10, 25, 12, 0, 0, i)),
    }));
    for (const r of records) meter.record(r);
    await meter.flush();
    assert.equal(meter.pending, 0);
    const { rows } = await sql<UsageRecord>`SELECT account_id::text, key_id::text,
        contract_id::text, method, route, status, duration_ms, request_id, occurred_at
      FROM usage_records ORDER BY occurred_at`.execute(database.db);
    assert.deepEqual(rows, records);
  } finally {
    await cleanup();
  }
});
