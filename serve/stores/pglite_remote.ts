/**
 * Embedded PGlite behind a Deno Worker (pglite_worker.ts). PGlite runs PostgreSQL as
 * WebAssembly on whichever thread owns it; owned by the server's own thread, every batch of
 * usage records and every query ran between requests and held them up (about a third of the
 * CPU time of a metered `GET /api/v1/health`). Here the worker owns it and this thread only
 * posts statements and reads answers.
 *
 * RemotePglite offers what Kysely's PGliteDialect and the stores use: `query`, `exec`,
 * `transaction` and `close`. PGlite is one session, so, as PGlite itself does, a transaction
 * holds the session: statements from outside wait until it commits or rolls back, while the
 * transaction's own statements go straight through. Other statements are sent without waiting
 * for the ones before them to answer (the worker runs them in order), so the session is not
 * idle while this thread is busy with something else. Errors come back as Errors with the database's fields (code, detail, constraint...).
 */
import type { PGliteDialectConfig } from "kysely";

type KyselyPglite = Exclude<PGliteDialectConfig["pglite"], (...args: never[]) => unknown>;

/** A message to the worker. */
export type WorkerRequest =
  | { id: number; op: "open"; path: string; sharedBuffers: string }
  | { id: number; op: "query"; sql: string; params: unknown[] }
  | { id: number; op: "exec"; sql: string }
  | { id: number; op: "close" };

/** The worker's answer to the request with the same id. */
export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: Record<string, unknown> };

/** An answer to a query, as PGlite gives it. */
export interface RemoteResults<T> {
  rows: T[];
  affectedRows?: number;
  fields: { name: string; dataTypeID: number }[];
}

/** A database error raised in the worker, with the fields PGlite gave it. */
export class RemoteDatabaseError extends Error {
  [key: string]: unknown;
  constructor(fields: Record<string, unknown>) {
    super(String(fields.message ?? "database error"));
    this.name = String(fields.name ?? "DatabaseError");
    for (const [key, value] of Object.entries(fields)) {
      if (key !== "message" && key !== "name") this[key] = value;
    }
  }
}

/**
 * Who may send statements to the session now. Statements outside a transaction are sent at
 * once (the worker runs them in arrival order, so several can be on their way); a transaction
 * holds the session alone: it starts once every statement sent before it is done, and
 * statements and transactions that come while it runs wait, in order, until it ends.
 */
class Session {
  #transaction = false;
  #inFlight = 0;
  #idle: (() => void)[] = [];
  #queue: { transaction: boolean; go(): void }[] = [];

  /** Resolves when a statement outside a transaction may be sent. */
  async statement(): Promise<void> {
    if (this.#transaction || this.#queue.length > 0) {
      // Counted in flight by transactionDone, before a transaction behind it may start.
      await new Promise<void>((go) => this.#queue.push({ transaction: false, go }));
    } else {
      this.#inFlight++;
    }
  }

  /** Marks a statement outside a transaction done. */
  statementDone(): void {
    if (--this.#inFlight === 0) { for (const go of this.#idle.splice(0)) go(); }
  }

  /** Resolves when a transaction holds the session (after the statements already sent). */
  async transaction(): Promise<void> {
    if (this.#transaction || this.#queue.length > 0) {
      await new Promise<void>((go) => this.#queue.push({ transaction: true, go }));
    } else {
      this.#transaction = true;
    }
    while (this.#inFlight > 0) await new Promise<void>((go) => this.#idle.push(go));
  }

  /** Ends the transaction: waiting statements go, up to the next waiting transaction. */
  transactionDone(): void {
    this.#transaction = false;
    while (this.#queue.length > 0 && !this.#transaction) {
      const next = this.#queue.shift()!;
      if (next.transaction) this.#transaction = true;
      else this.#inFlight++;
      next.go();
    }
  }
}

/** PGlite in a worker; open with RemotePglite.open(path, sharedBuffers). */
export class RemotePglite implements KyselyPglite {
  #worker: Worker;
  #nextId = 1;
  #pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  #session = new Session();
  #failure: Error | null = null;
  closed = false;
  ready = false;
  waitReady: Promise<void>;

  private constructor(path: string, sharedBuffers: string) {
    this.#worker = new Worker(new URL("./pglite_worker.ts", import.meta.url), {
      type: "module",
    });
    this.#worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      const reply = event.data;
      const waiter = this.#pending.get(reply.id);
      if (!waiter) return;
      this.#pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.value);
      else waiter.reject(new RemoteDatabaseError(reply.error));
    };
    this.#worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#fail(new Error(`the embedded database worker failed: ${event.message}`));
    };
    this.waitReady = this.#send({ id: 0, op: "open", path, sharedBuffers }).then(() => {
      this.ready = true;
    });
  }

  /** Starts the worker and opens the data directory at path in it. */
  static async open(path: string, sharedBuffers: string): Promise<RemotePglite> {
    const remote = new RemotePglite(path, sharedBuffers);
    try {
      await remote.waitReady;
    } catch (error) {
      remote.#worker.terminate();
      remote.closed = true;
      throw error;
    }
    return remote;
  }

  #fail(error: Error): void {
    this.#failure = error;
    for (const waiter of this.#pending.values()) waiter.reject(error);
    this.#pending.clear();
  }

  #send(request: WorkerRequest): Promise<unknown> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id });
    });
  }

  #checkOpen(): void {
    if (this.closed) throw new Error("database is closed");
  }

  async #query<T>(sql: string, params: unknown[] | undefined): Promise<RemoteResults<T>> {
    const value = await this.#send({ id: 0, op: "query", sql, params: params ?? [] }) as {
      rows: T[];
      affectedRows: number | null;
    };
    return { rows: value.rows, affectedRows: value.affectedRows ?? undefined, fields: [] };
  }

  /** Runs one statement (parameters $1...) once no transaction holds the session. */
  async query<T>(sql: string, params?: unknown[]): Promise<RemoteResults<T>> {
    this.#checkOpen();
    await this.#session.statement();
    try {
      return await this.#query<T>(sql, params);
    } finally {
      this.#session.statementDone();
    }
  }

  /** Runs a script of statements without parameters (migrations). */
  async exec(sql: string): Promise<void> {
    this.#checkOpen();
    await this.#session.statement();
    try {
      await this.#send({ id: 0, op: "exec", sql });
    } finally {
      this.#session.statementDone();
    }
  }

  /**
   * Runs callback inside BEGIN ... COMMIT holding the session; ROLLBACK when it throws or
   * calls tx.rollback().
   */
  async transaction<T>(
    callback: (tx: {
      query<R>(sql: string, params?: unknown[]): Promise<RemoteResults<R>>;
      rollback(): Promise<void>;
    }) => Promise<T>,
  ): Promise<T> {
    this.#checkOpen();
    await this.#session.transaction();
    let finished = false;
    try {
      await this.#send({ id: 0, op: "exec", sql: "BEGIN" });
      const tx = {
        query: <R>(sql: string, params?: unknown[]) => {
          if (finished) return Promise.reject(new Error("the transaction has ended"));
          return this.#query<R>(sql, params);
        },
        rollback: async () => {
          if (finished) return;
          finished = true;
          await this.#send({ id: 0, op: "exec", sql: "ROLLBACK" });
        },
      };
      let result: T;
      try {
        result = await callback(tx);
      } catch (error) {
        if (!finished) {
          finished = true;
          await this.#send({ id: 0, op: "exec", sql: "ROLLBACK" }).catch(() => {});
        }
        throw error;
      }
      if (!finished) {
        finished = true;
        await this.#send({ id: 0, op: "exec", sql: "COMMIT" });
      }
      return result;
    } finally {
      this.#session.transactionDone();
    }
  }

  /** Closes the database (after statements already issued) and ends the worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.#session.transaction();
    try {
      if (!this.#failure) await this.#send({ id: 0, op: "close" });
    } finally {
      this.#session.transactionDone();
      this.#worker.terminate();
      this.#fail(new Error("database is closed"));
    }
  }
}
