/**
 * The worker that owns embedded PGlite (see pglite_remote.ts): PostgreSQL compiled to
 * WebAssembly runs here, off the request thread, so a batch of usage records or a slow query
 * no longer holds up the server's event loop. It answers one message at a time, in order:
 * `open`, then `query` / `exec`, then `close`. Results and errors travel by structured clone
 * (Dates, BigInts and byte arrays keep their types).
 */
/// <reference lib="deno.worker" />
import { PGlite } from "@electric-sql/pglite";
import type { WorkerReply, WorkerRequest } from "./pglite_remote.ts";

let pglite: PGlite | null = null;

/** The fields of a database error a caller may look at, as plain data. */
function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const out: Record<string, unknown> = { message: error.message, name: error.name };
  for (
    const key of [
      "code",
      "severity",
      "detail",
      "hint",
      "position",
      "schema",
      "table",
      "column",
      "dataType",
      "constraint",
      "where",
    ]
  ) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (value !== undefined && value !== null) out[key] = value;
  }
  return out;
}

async function handle(request: WorkerRequest): Promise<WorkerReply> {
  try {
    switch (request.op) {
      case "open": {
        pglite = new PGlite(request.path, {
          postgresqlconf: [`shared_buffers=${request.sharedBuffers}`],
        });
        await pglite.waitReady;
        return { id: request.id, ok: true, value: null };
      }
      case "query": {
        const result = await pglite!.query(request.sql, request.params, {
          rowMode: "object",
        });
        return {
          id: request.id,
          ok: true,
          value: { rows: result.rows, affectedRows: result.affectedRows ?? null },
        };
      }
      case "exec": {
        await pglite!.exec(request.sql);
        return { id: request.id, ok: true, value: null };
      }
      case "close": {
        if (pglite && !pglite.closed) await pglite.close();
        return { id: request.id, ok: true, value: null };
      }
    }
  } catch (error) {
    return { id: request.id, ok: false, error: describeError(error) };
  }
}

// One request at a time, in arrival order: PGlite is a single session.
let queue: Promise<void> = Promise.resolve();
self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  queue = queue.then(async () => self.postMessage(await handle(request)));
};
