/** Runs the build SQL of a served table and its checks; reads sql/build/. */
import type { DuckDBConnection, DuckDBValue } from "@duckdb/node-api";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import type { TableSpec } from "./tables.ts";
import { LineHasher, sha256Hex } from "../hash.ts";
import type { ManifestTable } from "../manifest.ts";
import type { Progress } from "../progress.ts";

const SQL_DIR = fileURLToPath(new URL("../../sql/build/", import.meta.url));

/** A table check that found offending rows. */
export class CheckError extends Error {
  constructor(readonly table: string, readonly check: string, readonly sample: unknown[]) {
    super(
      `check failed on table ${table}: ${check} (${sample.length}+ offending rows, first: ${
        JSON.stringify(sample[0], (_k, v) => typeof v === "bigint" ? Number(v) : v)
      })`,
    );
    this.name = "CheckError";
  }
}

async function readSql(file: string, dir = SQL_DIR): Promise<string | null> {
  try {
    return await Deno.readTextFile(join(dir, file));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Builds one served table from its SQL file. */
export async function buildTable(
  connection: DuckDBConnection,
  table: TableSpec,
  params?: Record<string, DuckDBValue>,
): Promise<number> {
  const sql = await readSql(`${table.name}.sql`);
  if (sql === null) throw new Error(`sql/build/${table.name}.sql is missing`);
  await connection.run(sql, params);
  return await countRows(connection, table.name);
}

/** Row count of a table. */
export async function countRows(connection: DuckDBConnection, name: string): Promise<number> {
  const reader = await connection.runAndReadAll(`SELECT count(*) FROM ${name}`);
  return Number(reader.getRows()[0][0]);
}

/** Splits a .checks.sql file into named statements ("-- check: <name>" before each). */
export function parseChecks(text: string): { name: string; sql: string }[] {
  return text
    .split(/;\s*(?:\n|$)/)
    .map((part) => part.trim())
    .filter((part) => part.replace(/--[^\n]*/g, "").trim() !== "")
    .map((part) => {
      const name = part.match(/--\s*check:\s*(.+)/)?.[1]?.trim() ?? "unnamed check";
      return { name, sql: part };
    });
}

/** The generated checks of a table: key uniqueness and required columns. */
function generatedChecks(table: TableSpec): { name: string; sql: string }[] {
  const key = table.key.join(", ");
  const checks = [{
    name: `key (${key}) is unique`,
    sql: `SELECT ${key}, count(*) AS n FROM ${table.name} GROUP BY ${key} HAVING count(*) > 1`,
  }];
  for (const column of [...table.key, ...table.notNull]) {
    checks.push({
      name: `${column} is never NULL`,
      sql: `SELECT * FROM ${table.name} WHERE ${column} IS NULL`,
    });
  }
  return checks;
}

/** Runs every check of a table; throws CheckError on the first one that returns rows. */
export async function checkTable(
  connection: DuckDBConnection,
  table: TableSpec,
  sqlDir = SQL_DIR,
): Promise<number> {
  const custom = await readSql(`${table.name}.checks.sql`, sqlDir);
  // Custom checks first: they name the input rule (e.g. a duplicated Job Zones row) that a
  // generated key check would otherwise report only by its effect on the built table.
  const checks = [...(custom ? parseChecks(custom) : []), ...generatedChecks(table)];
  for (const check of checks) {
    const reader = await connection.runAndReadAll(`SELECT * FROM (\n${check.sql}\n) LIMIT 5`);
    const rows = reader.getRowObjectsJS();
    if (rows.length > 0) throw new CheckError(table.name, check.name, rows);
  }
  return checks.length;
}

/** Content hash of a table: sha256 over its rows in key order, one canonical JSON line each. */
export async function hashTable(connection: DuckDBConnection, table: TableSpec): Promise<string> {
  const hasher = new LineHasher();
  const reader = await connection.runAndReadAll(
    `SELECT * FROM ${table.name} ORDER BY ${table.key.join(", ")}`,
  );
  const columns = reader.columnNames();
  hasher.add(columns);
  for (const row of reader.getRowsJS()) hasher.add(row);
  return hasher.hex();
}

/**
 * Content hash of a table, in the order of its key: ordered row hashes in chunks of 100,000
 * rows, then one sha256 over them. The same digest on every run (a .duckdb file itself is not
 * byte-identical across builds) without holding a million rows in JavaScript.
 */
export async function hashTableContents(
  connection: { runAndReadAll(sql: string): Promise<{ getRows(): unknown[][] }> },
  table: TableSpec,
): Promise<string> {
  const key = table.key.join(", ");
  const reader = await connection.runAndReadAll(
    `SELECT chunk, md5(string_agg(line, chr(10) ORDER BY n)) FROM (
       SELECT (n - 1) // 100000 AS chunk, n, line FROM (
         SELECT row_number() OVER (ORDER BY ${key}) AS n, to_json(t)::VARCHAR AS line
         FROM ${table.name} t)) GROUP BY chunk ORDER BY chunk`,
  );
  return await sha256Hex(reader.getRows().map((r) => String(r[1])).join("\n"));
}

/**
 * Builds each table from `<sqlDir>/<name>.sql` (statements run in order), then runs every
 * table's checks, then hashes every table's contents: three progress steps per table list
 * (one per table, then "check tables" and "hash table contents"). `step` names the next step.
 */
export async function buildCheckedTables(
  connection: DuckDBConnection,
  specs: readonly TableSpec[],
  sqlDir: string,
  progress: Progress,
  step: (name: string) => void,
): Promise<ManifestTable[]> {
  const tables: ManifestTable[] = [];
  for (const table of specs) {
    step(`table ${table.name}`);
    const text = await readSql(`${table.name}.sql`, sqlDir);
    if (text === null) throw new Error(`${join(sqlDir, table.name)}.sql is missing`);
    for (const statement of parseChecks(text)) await connection.run(statement.sql);
    const rows = await countRows(connection, table.name);
    progress.done(`${rows} rows`);
    tables.push({ name: table.name, rows, content_hash: "", source_status: "present" });
  }
  step("check tables");
  let checks = 0;
  for (const table of specs) checks += await checkTable(connection, table, sqlDir);
  progress.done(`${checks} checks passed`);
  step("hash table contents");
  for (let i = 0; i < specs.length; i++) {
    tables[i].content_hash = await hashTableContents(connection, specs[i]);
  }
  progress.done(`${tables.length} tables`);
  return tables;
}
