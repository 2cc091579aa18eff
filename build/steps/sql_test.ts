/** Unit tests of the build SQL runner: check-file parsing, table checks and content hashes. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { buildTable, CheckError, checkTable, hashTable, parseChecks } from "./sql.ts";
import { type TableSpec, TAXONOMY_TABLES } from "./tables.ts";

const SQL_DIR = fileURLToPath(new URL("../../sql/build/", import.meta.url));

/** Runs fn with a fresh in-memory DuckDB connection. */
async function withMemoryDb<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(":memory:", { threads: "1" });
  const connection = await instance.connect();
  try {
    return await fn(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

function table(name: string): TableSpec {
  const found = TAXONOMY_TABLES.find((t) => t.name === name);
  assert.ok(found, name);
  return found;
}

Deno.test("parseChecks splits named statements", () => {
  const checks = parseChecks(`-- Checks of a table.
-- check: first rule
SELECT a FROM t WHERE a < 0;

-- check:   second rule  
SELECT b, ';' AS s FROM t
WHERE b IS NULL;
-- check: third rule without a final semicolon
SELECT 1 WHERE false
`);
  assert.deepEqual(checks.map((c) => c.name), [
    "first rule",
    "second rule",
    "third rule without a final semicolon",
  ]);
  assert.equal(
    checks[0].sql,
    "-- Checks of a table.\n-- check: first rule\nSELECT a FROM t WHERE a < 0",
  );
  assert.equal(
    checks[1].sql,
    "-- check:   second rule  \nSELECT b, ';' AS s FROM t\nWHERE b IS NULL",
  );
  assert.equal(
    checks[2].sql,
    "-- check: third rule without a final semicolon\nSELECT 1 WHERE false",
  );
});

Deno.test("parseChecks: unnamed statements, comment-only and empty parts", () => {
  assert.deepEqual(parseChecks(""), []);
  assert.deepEqual(parseChecks("-- only a comment\n;\n  \n"), []);
  assert.deepEqual(parseChecks("SELECT 1 WHERE false;\n-- trailing note\n"), [
    { name: "unnamed check", sql: "SELECT 1 WHERE false" },
  ]);
  assert.deepEqual(parseChecks("-- check: a\nSELECT 1;\r\n-- check: b\r\nSELECT 2;"), [
    { name: "a", sql: "-- check: a\nSELECT 1" },
    { name: "b", sql: "-- check: b\r\nSELECT 2" },
  ]);
});

Deno.test("every sql/build/*.checks.sql file parses into named checks", async () => {
  let files = 0;
  for await (const entry of Deno.readDir(SQL_DIR)) {
    if (!entry.name.endsWith(".checks.sql")) continue;
    files++;
    const name = entry.name.replace(/\.checks\.sql$/, "");
    assert.ok(TAXONOMY_TABLES.some((t) => t.name === name), `${entry.name}: no such table`);
    const text = await Deno.readTextFile(SQL_DIR + entry.name);
    const checks = parseChecks(text);
    const markers = text.match(/--\s*check:/g)?.length ?? 0;
    assert.equal(checks.length, markers, entry.name);
    assert.ok(checks.every((c) => c.name !== "unnamed check"), entry.name);
    assert.equal(new Set(checks.map((c) => c.name)).size, checks.length, entry.name);
  }
  assert.ok(files >= 5, `only ${files} check files found`);
});

Deno.test("checkTable passes clean rows and throws CheckError naming table and check", async () => {
  const related = table("related_occupations");
  await withMemoryDb(async (connection) => {
    const create = async (values: string) => {
      await connection.run("DROP TABLE IF EXISTS related_occupations");
      await connection.run(
        "CREATE TABLE related_occupations (onet_code VARCHAR, related_code VARCHAR, " +
          "relatedness_tier VARCHAR, related_index INTEGER)",
      );
      await connection.run(`INSERT INTO related_occupations VALUES ${values}`);
    };
    const failure = async () => {
      const error = await checkTable(connection, related).then(
        () => assert.fail("checks passed"),
        (e) => e,
      );
      assert.ok(error instanceof CheckError, `expected CheckError, got ${error}`);
      assert.equal(error.table, "related_occupations");
      return error;
    };

    await create("('11-1011.00', '11-2021.00', 'Primary-Short', 1)");
    // key uniqueness + 2 key columns + 2 not-null columns + 2 checks from the .checks.sql
    assert.equal(await checkTable(connection, related), 7);

    await create(
      "('11-1011.00', '11-2021.00', 'Primary-Short', 1), ('11-1011.00', '11-2021.00', 'Primary-Long', 2)",
    );
    let error = await failure();
    assert.equal(error.check, "key (onet_code, related_code) is unique");
    assert.deepEqual(error.sample, [{
      onet_code: "11-1011.00",
      related_code: "11-2021.00",
      n: 2n,
    }]);
    assert.match(
      error.message,
      /first: \{"onet_code":"11-1011\.00","related_code":"11-2021\.00","n":2\}/,
    );

    await create("('11-1011.00', '11-2021.00', NULL, 1)");
    error = await failure();
    assert.equal(error.check, "relatedness_tier is never NULL");

    await create("('11-1011.00', '11-1011.00', 'Primary-Short', 1)");
    error = await failure();
    assert.equal(error.check, "an occupation is not related to itself");

    await create("('11-1011.00', '11-2021.00', 'Primary-Short', 0)");
    error = await failure();
    assert.equal(error.check, "the relatedness index is positive");
    assert.deepEqual(error.sample, [
      { onet_code: "11-1011.00", related_code: "11-2021.00", related_index: 0 },
    ]);
  });
});

Deno.test("hashTable hashes rows in key order; any changed cell changes it", async () => {
  const spec: TableSpec = { name: "t", key: ["k"], notNull: [], inputs: [] };
  await withMemoryDb(async (connection) => {
    const hashOf = async (values: string, columns = "k INTEGER, v VARCHAR") => {
      await connection.run("DROP TABLE IF EXISTS t");
      await connection.run(`CREATE TABLE t (${columns})`);
      await connection.run(`INSERT INTO t VALUES ${values}`);
      return await hashTable(connection, spec);
    };
    const base = await hashOf("(1, 'a'), (2, 'b'), (3, NULL)");
    assert.match(base, /^[0-9a-f]{64}$/);
    assert.equal(await hashOf("(3, NULL), (1, 'a'), (2, 'b')"), base);
    assert.notEqual(await hashOf("(1, 'a'), (2, 'B'), (3, NULL)"), base);
    assert.notEqual(await hashOf("(1, 'a'), (2, 'b'), (3, '')"), base);
    assert.notEqual(await hashOf("(1, 'a'), (2, 'b')"), base);
    // column names are part of the hash
    assert.notEqual(await hashOf("(1, 'a'), (2, 'b'), (3, NULL)", "k INTEGER, w VARCHAR"), base);
  });
});

Deno.test("buildTable runs the table's SQL and counts rows; a missing SQL file fails", async () => {
  await withMemoryDb(async (connection) => {
    const rows = await buildTable(connection, table("attribution"), {
      release: "29.3",
      label: null,
      text: "attribution text",
    });
    assert.equal(rows, 1);
    const reader = await connection.runAndReadAll("SELECT * FROM attribution");
    assert.deepEqual(reader.getRowObjectsJS(), [
      { release: "29.3", release_label: null, text: "attribution text" },
    ]);
    await assert.rejects(
      buildTable(connection, { name: "no_such_table", key: ["x"], notNull: [], inputs: [] }),
      /sql\/build\/no_such_table\.sql is missing/,
    );
  });
});
