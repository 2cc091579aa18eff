/**
 * Both Postgres modes through the same migrations (the server mode runs when
 * TEST_DATABASE_URL is set, as in CI), the migration rules, and the PGlite data-directory lock.
 */
import assert from "node:assert/strict";
import { sql } from "kysely";
import { DatabaseLockedError, openPglite } from "../serve/stores/postgres.ts";
import { migrate, MIGRATIONS_DIR, readMigrations } from "../serve/stores/migrate.ts";
import { recordActivation } from "../serve/stores/activations.ts";
import {
  pgliteTestDatabase,
  serverTestDatabase,
  TEST_DATABASE_URL,
  type TestDatabase,
} from "./helpers.ts";

async function migrationsRoundTrip(open: () => Promise<TestDatabase>) {
  const { database, cleanup } = await open();
  try {
    const files = await readMigrations();
    assert.ok(files.length >= 1);
    assert.deepEqual(await migrate(database), files.map((f) => f.version));
    assert.deepEqual(await migrate(database), [], "a second run applies nothing");
    await recordActivation(database.db, {
      artifact: "taxonomy",
      version: "29.3-000000000000",
      contentHash: "a".repeat(64),
      instanceId: "test:1",
    });
    const rows = await database.db.selectFrom("artifact_activations").selectAll().execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0].version, "29.3-000000000000");
    assert.ok(rows[0].activated_at instanceof Date);
    const applied = await database.db.selectFrom("schema_migrations").select("version").execute();
    assert.deepEqual(applied.map((r) => r.version), files.map((f) => f.version));
    await database.ping(1000);
  } finally {
    await cleanup();
  }
}

Deno.test("PGlite: migrations apply once and the schema works", async () => {
  await migrationsRoundTrip(pgliteTestDatabase);
});

Deno.test({
  name: "PostgreSQL server: the same migrations apply once and the schema works",
  ignore: !TEST_DATABASE_URL,
  fn: () => migrationsRoundTrip(() => serverTestDatabase()),
});

Deno.test({
  name: "PostgreSQL server: replicas migrating at once apply each migration exactly once",
  ignore: !TEST_DATABASE_URL,
  fn: async () => {
    const { database, cleanup } = await serverTestDatabase();
    try {
      const results = await Promise.all([migrate(database), migrate(database), migrate(database)]);
      const applied = results.flat();
      assert.deepEqual(applied, (await readMigrations()).map((m) => m.version));
    } finally {
      await cleanup();
    }
  },
});

Deno.test("a migration edited after it was applied stops start-up", async () => {
  const dir = await Deno.makeTempDir({ prefix: "test-migrations-" });
  const { database, cleanup } = await pgliteTestDatabase();
  try {
    const path = `${dir}/20260101000000_example.sql`;
    await Deno.writeTextFile(path, "-- why: test\nCREATE TABLE example (id INT);\n");
    assert.deepEqual(await migrate(database, dir), ["20260101000000"]);
    await Deno.writeTextFile(path, "-- why: test\nCREATE TABLE example (id BIGINT);\n");
    await assert.rejects(() => migrate(database, dir), /changed after it was applied/);
  } finally {
    await cleanup();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a failing migration rolls back entirely and names the file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "test-migrations-" });
  const { database, cleanup } = await pgliteTestDatabase();
  try {
    await Deno.writeTextFile(
      `${dir}/20260101000000_broken.sql`,
      "CREATE TABLE half (id INT);\nSELECT * FROM no_such_table;\n",
    );
    await assert.rejects(() => migrate(database, dir), /20260101000000_broken\.sql failed/);
    const exists = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'half'
    `.execute(database.db);
    assert.equal(exists.rows[0].n, 0, "the partial migration was rolled back");
  } finally {
    await cleanup();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("migration files are named <timestamp>_<name>.sql and start with a why comment", async () => {
  for (const m of await readMigrations(MIGRATIONS_DIR)) {
    assert.match(m.version, /^\d{14}$/);
    assert.match(m.sql, /^-- Why: /, `${m.version}_${m.name}.sql must start with "-- Why: "`);
  }
});

Deno.test("PGlite: a second opener of the same data directory fails clearly; the lock frees on close", async () => {
  const dir = await Deno.makeTempDir({ prefix: "test-lock-" });
  try {
    const first = await openPglite(dir);
    await assert.rejects(() => openPglite(dir), (error: unknown) => {
      assert.ok(error instanceof DatabaseLockedError);
      assert.match(error.message, /in use by another process \(pid \d+\)/);
      return true;
    });
    // Another process (the db:migrate CLI) is refused too, with the same message.
    const child = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../serve/migrate.ts", import.meta.url).pathname],
      env: { DATA_DIR: dir },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(child.code, 1);
    assert.match(new TextDecoder().decode(child.stderr), /in use by another process/);
    await first.close();
    const second = await openPglite(dir);
    await second.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
