/**
 * Embedded PGlite in its worker (serve/stores/pglite_remote.ts): values keep their types,
 * errors keep the database's fields, a transaction holds the session alone (statements from
 * outside wait for its end and never run inside it), a failed callback rolls back, and close
 * ends the worker.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sql } from "kysely";
import { RemotePglite } from "../serve/stores/pglite_remote.ts";
import { openPglite } from "../serve/stores/postgres.ts";
import { migrate } from "../serve/stores/migrate.ts";

async function withRemote(fn: (db: RemotePglite) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "test-remote-pglite-" });
  const db = await RemotePglite.open(join(dir, "pglite"), "16MB");
  try {
    await fn(db);
  } finally {
    await db.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("remote PGlite: types, errors, transactions and ordering", async (t) => {
  await withRemote(async (db) => {
    await db.exec(
      "CREATE TABLE t (id int PRIMARY KEY, at timestamptz, big int8, b bytea, j jsonb)",
    );

    await t.step("values round-trip with their types", async () => {
      const at = new Date("2026-11-24T12:34:56.789Z");
      await db.query("INSERT INTO t VALUES ($1, $2, $3, $4, $5)", [
        1,
        at,
        9007199254740993n,
        new Uint8Array([1, 2, 255]),
        JSON.stringify({ a: [1, "x"] }),
      ]);
      const { rows } = await db.query<Record<string, unknown>>("SELECT * FROM t WHERE id = $1", [
        1,
      ]);
      assert.equal(rows.length, 1);
      assert.deepEqual(rows[0].at, at);
      assert.equal(rows[0].big, 9007199254740993n);
      assert.deepEqual(rows[0].b, new Uint8Array([1, 2, 255]));
      assert.deepEqual(rows[0].j, { a: [1, "x"] });
      const updated = await db.query("UPDATE t SET big = 2 WHERE id >= 0");
      assert.equal(updated.affectedRows, 1);
    });

    await t.step("a database error keeps its code and constraint", async () => {
      await assert.rejects(
        () => db.query("INSERT INTO t (id) VALUES (1)"),
        (error: Error & { code?: string; constraint?: string }) => {
          assert.equal(error.code, "23505");
          assert.equal(error.constraint, "t_pkey");
          assert.match(error.message, /duplicate key/);
          return true;
        },
      );
    });

    await t.step("statements from outside wait for a transaction's end", async () => {
      let releaseTx!: () => void;
      const held = new Promise<void>((resolve) => releaseTx = resolve);
      const order: string[] = [];
      const tx = db.transaction(async (tx) => {
        await tx.query("INSERT INTO t (id) VALUES (10)");
        order.push("tx insert");
        await held;
        // Had the outside insert of 11 run inside this transaction, it would count here.
        const { rows } = await tx.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM t WHERE id = 11",
        );
        order.push(`tx sees ${rows[0].n}`);
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const outside = db.query("INSERT INTO t (id) VALUES (11)").then(() => order.push("outside"));
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(order, ["tx insert"]);
      releaseTx();
      await Promise.all([tx, outside]);
      assert.deepEqual(order, ["tx insert", "tx sees 0", "outside"]);
    });

    await t.step("a failing callback rolls back, and the session stays usable", async () => {
      await assert.rejects(
        () =>
          db.transaction(async (tx) => {
            await tx.query("INSERT INTO t (id) VALUES (20)");
            throw new Error("boom");
          }),
        /boom/,
      );
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM t WHERE id = 20",
      );
      assert.equal(rows[0].n, 0);
    });

    await t.step("many statements at once all answer, in order", async () => {
      const inserts = Array.from(
        { length: 50 },
        (_, i) => db.query("INSERT INTO t (id) VALUES ($1)", [100 + i]),
      );
      const txs = Array.from({ length: 5 }, (_, i) =>
        db.transaction(async (tx) => {
          await tx.query("INSERT INTO t (id) VALUES ($1)", [200 + i]);
        }));
      await Promise.all([...inserts, ...txs]);
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM t WHERE id >= 100",
      );
      assert.equal(rows[0].n, 55);
    });
  });
});

Deno.test("remote PGlite: a closed database refuses statements", async () => {
  const dir = await Deno.makeTempDir({ prefix: "test-remote-pglite-" });
  try {
    const db = await RemotePglite.open(join(dir, "pglite"), "16MB");
    await db.close();
    assert.equal(db.closed, true);
    await assert.rejects(() => db.query("SELECT 1"), /closed/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("remote PGlite: PGLITE_WORKER's database migrates and serves Kysely", async () => {
  const dir = await Deno.makeTempDir({ prefix: "test-remote-pglite-" });
  const database = await openPglite(dir, "16MB", true);
  try {
    await migrate(database);
    await database.ping(5_000);
    const row = await database.db.selectFrom("accounts").select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    assert.equal(Number(row.n), 0);
    await database.db.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
    });
  } finally {
    await database.close();
    await Deno.remove(dir, { recursive: true });
  }
});
