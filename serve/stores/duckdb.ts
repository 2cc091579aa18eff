/**
 * DuckDB's library, loaded on first use. Its native part maps about 30 MB of pages into the
 * process: a server whose artifacts all load from their build's snapshots never reads a data
 * file, so nothing in the server's module graph imports the library statically (only types):
 * every use goes through {@linkcode duckdb}. `tests/duckdb_lazy_test.ts` checks the graph.
 */
import type { DuckDBConnection } from "@duckdb/node-api";

/** The `@duckdb/node-api` module, imported (and its native library loaded) on the first call. */
export const duckdb = () => import("@duckdb/node-api");

/** Runs `read` on a read-only connection to a data file of its own, closed afterwards. */
export async function readDataFile<T>(
  file: string,
  read: (connection: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const { DuckDBInstance } = await duckdb();
  const instance = await DuckDBInstance.create(file, { access_mode: "READ_ONLY", threads: "1" });
  try {
    const connection = await instance.connect();
    try {
      return await read(connection);
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

/**
 * A version's data file, opened read-only on the first call (the artifact registry checks its
 * tables' row counts against the manifest then) and closed once the load resolves. A loader that
 * has everything it serves from its snapshots never calls it. The registry gives each call a
 * connection of its own; {@linkcode openedFile} gives every call the same one, where a query ends
 * a result still being streamed, so its readers must take turns.
 */
export type DataFile = () => Promise<DuckDBConnection>;

/** A data file already open (the builds and tests, which hold a connection). */
export const openedFile = (connection: DuckDBConnection): DataFile => () =>
  Promise.resolve(connection);
