/**
 * Forward-only SQL migrations from sql/postgres/<timestamp>_<name>.sql, identical for PGlite
 * and PostgreSQL. Each runs in its own transaction; an advisory lock serialises replicas
 * starting together; an applied file whose content changed stops start-up.
 */
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import type { Database } from "./postgres.ts";
import { sha256Hex } from "../../build/hash.ts";

/** The folder of the service's migrations. */
export const MIGRATIONS_DIR = fileURLToPath(new URL("../../sql/postgres/", import.meta.url));

const FILE = /^(\d{14})_([a-z0-9_]+)\.sql$/;
const LOCK_KEY = 727_001; // arbitrary constant shared by every instance of this service

/** A migration file. */
export interface Migration {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

/** Reads the migration files in version order; a misnamed .sql file is an error. */
export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const migrations: Migration[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".sql")) continue;
    const match = entry.name.match(FILE);
    if (!match) {
      throw new Error(`migration ${entry.name} must be named <14-digit timestamp>_<name>.sql`);
    }
    const sql = await Deno.readTextFile(join(dir, entry.name));
    migrations.push({ version: match[1], name: match[2], sql, checksum: await sha256Hex(sql) });
  }
  return migrations.sort((a, b) => a.version.localeCompare(b.version));
}

/** Applies pending migrations; returns the versions applied by this call. */
export async function migrate(database: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(dir);
  return await database.withSession(async (session) => {
    if (database.kind === "postgres") {
      await session.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
    }
    try {
      await session.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        checksum TEXT NOT NULL,
        applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
      const rows = await session.query<{ version: string; checksum: string }>(
        "SELECT version, checksum FROM schema_migrations",
      );
      const applied = new Map(rows.map((r) => [r.version, r.checksum]));
      const done: string[] = [];
      for (const m of migrations) {
        const checksum = applied.get(m.version);
        if (checksum !== undefined) {
          if (checksum !== m.checksum) {
            throw new Error(
              `migration ${m.version}_${m.name}.sql changed after it was applied; ` +
                "migrations are forward-only: add a new one instead",
            );
          }
          continue;
        }
        await session.exec("BEGIN");
        try {
          await session.exec(m.sql);
          await session.query(
            "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
            [m.version, m.name, m.checksum],
          );
          await session.exec("COMMIT");
        } catch (error) {
          await session.exec("ROLLBACK").catch(() => {});
          throw new Error(`migration ${m.version}_${m.name}.sql failed: ${String(error)}`);
        }
        done.push(m.version);
      }
      return done;
    } finally {
      if (database.kind === "postgres") {
        await session.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]).catch(() => {});
      }
    }
  });
}
