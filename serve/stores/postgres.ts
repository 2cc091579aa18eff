/**
 * Postgres through Kysely, in either of two modes with the same migrations: embedded PGlite
 * (data directory under DATA_DIR, guarded by an exclusive lock file so a second process
 * cannot open and corrupt it) or a real server named by DATABASE_URL, through a pg pool.
 */
import { Kysely, PGliteDialect, PostgresDialect, sql } from "kysely";
import { PGlite } from "@electric-sql/pglite";
import { RemotePglite } from "./pglite_remote.ts";
// @ts-types="@types/pg"
import pg from "pg";
import { join } from "node:path";
import type { DB } from "./schema.ts";

/** A session that can run multi-statement scripts, used by migrations. */
export interface ScriptSession {
  exec(script: string): Promise<void>;
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
}

/** An open database in one of the two modes. */
export interface Database {
  kind: "pglite" | "postgres";
  db: Kysely<DB>;
  /** Resolves when the database answers within timeoutMs; rejects otherwise. */
  ping(timeoutMs: number): Promise<void>;
  /** Runs fn on one dedicated session (a pooled client, or the PGlite instance). */
  withSession<T>(fn: (session: ScriptSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The embedded data directory is held by another process. */
export class DatabaseLockedError extends Error {
  constructor(readonly lockPath: string, holder: string) {
    super(
      `the embedded database in ${lockPath.replace(/\/[^/]+$/, "")} is in use by another ` +
        `process${holder ? ` (${holder})` : ""}; stop it first, or point DATA_DIR elsewhere, ` +
        `or use a PostgreSQL server with DATABASE_URL`,
    );
    this.name = "DatabaseLockedError";
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Takes the exclusive lock on DATA_DIR/pglite.lock. The OS releases it when the process
 * dies, so a crash never leaves a stale lock behind.
 */
async function lockDataDir(dataDir: string): Promise<Deno.FsFile> {
  await Deno.mkdir(dataDir, { recursive: true });
  const lockPath = join(dataDir, "pglite.lock");
  const file = await Deno.open(lockPath, { read: true, write: true, create: true });
  if (!(await file.tryLock(true))) {
    const holder = await Deno.readTextFile(lockPath).catch(() => "");
    file.close();
    throw new DatabaseLockedError(lockPath, holder.trim());
  }
  await file.truncate(0);
  await file.write(new TextEncoder().encode(`pid ${Deno.pid}\n`));
  return file;
}

/**
 * Opens embedded PGlite under dataDir/pglite, holding the data directory's lock. With inWorker,
 * PGlite runs in a worker of its own (pglite_remote.ts), off the request thread; by default it
 * runs on this thread (measured faster at the tail on this 2-core machine: see README). Postgres'
 * default 128MB of shared buffers lives inside the WebAssembly heap, so the embedded mode uses a
 * smaller pool (8MB unless configured) to keep the server's footprint small: under metered load
 * the pool is soon all touched, and its pages are never handed back (README, The server).
 */
export async function openPglite(
  dataDir: string,
  sharedBuffers = "8MB",
  inWorker = false,
): Promise<Database> {
  const lock = await lockDataDir(dataDir);
  let pglite: PGlite | RemotePglite;
  try {
    if (inWorker) {
      pglite = await RemotePglite.open(join(dataDir, "pglite"), sharedBuffers);
    } else {
      pglite = new PGlite(join(dataDir, "pglite"), {
        postgresqlconf: [`shared_buffers=${sharedBuffers}`],
      });
      await pglite.waitReady;
    }
  } catch (error) {
    lock.close();
    throw error;
  }
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
  let closed = false;
  return {
    kind: "pglite",
    db,
    async ping(timeoutMs) {
      if (closed || pglite.closed) throw new Error("database is closed");
      await withTimeout(pglite.query("SELECT 1"), timeoutMs, "database ping");
    },
    withSession: (fn) =>
      fn({
        exec: async (script) => void await pglite.exec(script),
        query: async <T>(text: string, params?: unknown[]) =>
          (await pglite.query<T>(text, params)).rows,
      }),
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      if (!pglite.closed) await pglite.close();
      await lock.unlock().catch(() => {});
      lock.close();
    },
  };
}

/** Opens a pg pool against a real PostgreSQL server. */
export function openPostgres(
  url: string,
  poolMax: number,
  onPoolError: (error: Error) => void = () => {},
): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolMax, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", onPoolError);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  return {
    kind: "postgres",
    db,
    async ping(timeoutMs) {
      if (closed) throw new Error("database is closed");
      await withTimeout(sql`SELECT 1`.execute(db), timeoutMs, "database ping");
    },
    async withSession(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          exec: async (script) => void await client.query(script),
          query: async <T>(text: string, params?: unknown[]) =>
            (await client.query(text, params)).rows as T[],
        });
      } finally {
        client.release();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy(); // ends the pool
    },
  };
}

/** Opens the database the configuration names: DATABASE_URL if set, else embedded PGlite. */
export async function openDatabase(config: {
  DATABASE_URL?: string;
  DATABASE_POOL_MAX: number;
  DATA_DIR: string;
  PGLITE_SHARED_BUFFERS: string;
  PGLITE_WORKER?: boolean;
}, onPoolError?: (error: Error) => void): Promise<Database> {
  return config.DATABASE_URL
    ? openPostgres(config.DATABASE_URL, config.DATABASE_POOL_MAX, onPoolError)
    : await openPglite(config.DATA_DIR, config.PGLITE_SHARED_BUFFERS, config.PGLITE_WORKER);
}

/**
 * Creates an empty database on the server of `url` (tests and benches: each run gets its own)
 * and returns its URL and the function that drops it.
 */
export async function createScratchDatabase(
  url: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;
  const run = async (statement: string) => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
