/**
 * Where a taxonomy version's ranking index lives and runs. In the server's own thread
 * (LocalRanker: the build, benches and in-process tests), or in a worker of its own
 * (WorkerRanker, OCCUPATION_WORKER, the server's default): ranking is pure CPU work, about two
 * thirds of an uncached candidates request, and on a machine with two cores the worker ranks on
 * one while the request thread parses, authenticates, meters and answers on the other. The
 * worker also loads a new version's snapshot, so a hot swap no longer holds the request thread
 * for the index.
 *
 * One worker serves every version loaded at a time (each index by a key); it starts with the
 * first version and stops when the last one is dropped. Requests are answered in order, by id.
 * Rankings and answers asked for in one turn of the event loop go in one message and come back in
 * one (a message each way had cost the request thread about a third of its work a request): 2,912
 * against 2,488 req/s of uncached candidates in alternating runs (notes/issue12.md, thirty-first
 * session).
 */
import type {
  IndexSource,
  OccupationIndex,
  Ranking,
  RankOptions,
  RankQuery,
} from "./engine/index.ts";
import { setImmediate } from "node:timers";
import {
  type Answer,
  answerOn,
  type AnswerRequest,
  onlyFacts,
  type VersionFacts,
} from "./respond.ts";

/** One ranking. */
export interface RankRequest {
  query: RankQuery;
  options: RankOptions;
}

/** A taxonomy version's ranking index, wherever it runs. */
export interface Ranker {
  /** Whether the index has word vectors (the semantic channel). */
  readonly hasVectors: boolean;
  /** Where it runs: "thread" or "worker". */
  readonly runs: "thread" | "worker";
  rank(request: RankRequest): Promise<Ranking>;
  /** The body of a candidates, analyze or classify request (respond.ts), made where it ranks. */
  answer(request: AnswerRequest): Promise<Answer>;
  /** Frees the index (a retired version); later rankings fail. */
  close(): void;
}

/** Ranks on the calling thread. */
export class LocalRanker implements Ranker {
  readonly runs = "thread";
  #index: OccupationIndex | null;
  readonly hasVectors: boolean;
  constructor(index: OccupationIndex, readonly facts: VersionFacts) {
    this.#index = index;
    this.hasVectors = index.hasVectors;
  }
  /** The index itself, for callers that rank synchronously (the build, benches). */
  get index(): OccupationIndex {
    if (!this.#index) throw new Error("the ranking index is closed");
    return this.#index;
  }
  rank(request: RankRequest): Promise<Ranking> {
    try {
      return Promise.resolve(this.index.rank(request.query, request.options));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  answer(request: AnswerRequest): Promise<Answer> {
    try {
      return Promise.resolve(answerOn(this.index, this.facts, request));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  close(): void {
    this.#index = null;
  }
}

/** A message to the ranking worker. */
export type RankerRequest =
  | { id: number; op: "load"; key: number; dir: string }
  | { id: number; op: "build"; key: number; dir: string; source: IndexSource }
  /** The facts a version's answers need; sent beside its load, as they are read meanwhile. */
  | { id: number; op: "facts"; key: number; facts: VersionFacts }
  | { id: number; op: "rank"; key: number; request: RankRequest }
  | { id: number; op: "answer"; key: number; request: AnswerRequest }
  | { id: number; op: "drop"; key: number }
  /** Makes the worker fail as a crash would (an error outside any handler): tests only. */
  | { id: number; op: "fail" }
  /** Rankings and answers sent in one message (RankingWorker batches them), answered in one. */
  | { id: number; op: "batch"; items: BatchedRequest[] };

/** A ranking or an answer inside a batch. */
export type BatchedRequest =
  | { id: number; op: "rank"; key: number; request: RankRequest }
  | { id: number; op: "answer"; key: number; request: AnswerRequest };

/** The worker's answer to the message with the same id (a batch's: one per item, in order). */
export type RankerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string }
  | { id: number; ok: true; batch: RankerReply[] };

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** One started worker and the answers it owes. */
interface Running {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Rankings and answers not sent yet (#flush sends them as one message). */
  batch: BatchedRequest[];
}

/** The process's ranking worker: started with the first index, stopped after the last. */
class RankingWorker {
  #running: Running | null = null;
  #nextId = 1;
  #nextKey = 1;
  #keys = new Set<number>();
  /** Counts workers that failed: an index loaded before a failure is gone. */
  generation = 0;
  /** Messages posted to the worker (a batch is one): tests read it. */
  posted = 0;

  /** A key for a new index. */
  open(): number {
    const key = this.#nextKey++;
    this.#keys.add(key);
    return key;
  }

  /** Forgets an index; the worker stops when it holds none. */
  drop(key: number): void {
    if (!this.#keys.delete(key) || !this.#running) return;
    if (this.#keys.size > 0) {
      this.send({ id: 0, op: "drop", key }).catch(() => {});
      return;
    }
    // Nothing left to rank: stop the worker once what was sent to it is answered.
    const running = this.#running;
    this.#running = null;
    const last = [...running.pending.values()].at(-1);
    if (!last) {
      running.worker.terminate();
      return;
    }
    const { resolve, reject } = last;
    last.resolve = (value) => (running.worker.terminate(), resolve(value));
    last.reject = (error) => (running.worker.terminate(), reject(error));
  }

  send<T>(message: RankerRequest): Promise<T> {
    const running = this.#running ?? this.#start();
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      running.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      if (message.op === "rank" || message.op === "answer") {
        // Rankings and answers asked for in one turn of the event loop go in one message (the
        // worker's reply to it is one too): each message costs both threads tens of µs.
        running.batch.push({ ...message, id });
        if (running.batch.length === 1) setImmediate(() => this.#flush(running));
        return;
      }
      // Anything else comes after the rankings already asked for.
      this.#flush(running);
      this.posted++;
      running.worker.postMessage({ ...message, id });
    });
  }

  #flush(running: Running): void {
    if (running.batch.length === 0) return;
    const items = running.batch;
    running.batch = [];
    this.posted++;
    if (items.length === 1) running.worker.postMessage(items[0]);
    else running.worker.postMessage({ id: 0, op: "batch", items });
  }

  #start(): Running {
    const worker = new Worker(new URL("./ranking_worker.ts", import.meta.url), { type: "module" });
    const running: Running = { worker, pending: new Map(), batch: [] };
    const settle = (reply: RankerReply) => {
      if ("batch" in reply) {
        for (const one of reply.batch) settle(one);
        return;
      }
      const waiter = running.pending.get(reply.id);
      if (!waiter) return;
      running.pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.value);
      else waiter.reject(new Error(reply.error));
    };
    worker.onmessage = (event: MessageEvent<RankerReply>) => settle(event.data);
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      worker.terminate();
      if (this.#running === running) {
        this.#running = null;
        this.generation++;
      }
      running.batch = [];
      const error = new Error(`the ranking worker failed: ${event.message}`);
      for (const waiter of running.pending.values()) waiter.reject(error);
      running.pending.clear();
    };
    this.#running = running;
    return running;
  }
}

const shared = new RankingWorker();

/** Tests: how many messages went to the ranking worker so far (a batch of rankings is one). */
export const rankingWorkerMessages = (): number => shared.posted;

/** Tests: makes the ranking worker fail as a crash would; resolves once it is gone. */
export async function failRankingWorker(): Promise<void> {
  await shared.send({ id: 0, op: "fail" }).catch(() => {});
}

/** Ranks in the process's ranking worker. */
export class WorkerRanker implements Ranker {
  readonly runs = "worker";
  #key: number | null;
  #generation: number;
  #reloading: Promise<void> | null = null;
  private constructor(
    key: number,
    readonly hasVectors: boolean,
    readonly from: string,
    readonly dir: string,
    readonly source: () => Promise<IndexSource>,
    readonly facts: VersionFacts,
  ) {
    this.#key = key;
    this.#generation = shared.generation;
  }

  /**
   * Loads a version's index into the worker from its snapshot (dir); when the snapshot cannot
   * be used, builds it there from the index source that `source` reads. `from` says how the
   * index was made: "snapshot" or "built (<why the snapshot was not used>)". The facts may still
   * be loading: the worker starts on the index at once and gets them when they come.
   */
  static async load(
    dir: string,
    source: () => Promise<IndexSource>,
    facts: VersionFacts | Promise<VersionFacts>,
  ): Promise<WorkerRanker> {
    const { key, hasVectors, from } = await loadInto(dir, source, facts);
    return new WorkerRanker(key, hasVectors, from, dir, source, await facts);
  }

  async rank(request: RankRequest): Promise<Ranking> {
    return await shared.send<Ranking>({ id: 0, op: "rank", key: await this.#ready(), request });
  }

  async answer(request: AnswerRequest): Promise<Answer> {
    return await shared.send<Answer>({ id: 0, op: "answer", key: await this.#ready(), request });
  }

  /** The index's key in a live worker (loaded again if the worker failed since). */
  async #ready(): Promise<number> {
    if (this.#key === null) throw new Error("the ranking index is closed");
    if (this.#generation !== shared.generation) {
      // The worker failed and took the index with it: load it again, once for all callers.
      this.#reloading ??= this.#reload().finally(() => this.#reloading = null);
      await this.#reloading;
    }
    return this.#key!;
  }

  async #reload(): Promise<void> {
    const generation = shared.generation;
    const { key } = await loadInto(this.dir, this.source, this.facts);
    if (this.#key === null) {
      shared.drop(key);
      throw new Error("the ranking index is closed");
    }
    shared.drop(this.#key);
    this.#key = key;
    this.#generation = generation;
  }

  close(): void {
    if (this.#key === null) return;
    shared.drop(this.#key);
    this.#key = null;
  }
}

async function loadInto(
  dir: string,
  source: () => Promise<IndexSource>,
  facts: VersionFacts | Promise<VersionFacts>,
): Promise<{ key: number; hasVectors: boolean; from: string }> {
  const key = shared.open();
  // Sent when they are read, while the worker loads the index (start-up: the two overlap).
  const factsSent = Promise.resolve(facts).then((value) =>
    shared.send<null>({ id: 0, op: "facts", key, facts: onlyFacts(value) })
  );
  factsSent.catch(() => {}); // awaited below; a load that fails first must not leave it unhandled
  try {
    const loaded = await shared.send<{ hasVectors: boolean } | { reason: string }>({
      id: 0,
      op: "load",
      key,
      dir,
    });
    let made: { hasVectors: boolean; from: string };
    if ("hasVectors" in loaded) made = { hasVectors: loaded.hasVectors, from: "snapshot" };
    else {
      const built = await shared.send<{ hasVectors: boolean; written: string }>({
        id: 0,
        op: "build",
        key,
        dir,
        source: await source(),
      });
      made = {
        hasVectors: built.hasVectors,
        from: `built (${loaded.reason}), snapshot ${built.written}`,
      };
    }
    await factsSent;
    return { key, ...made };
  } catch (error) {
    // Dropped after its facts went, so the worker keeps nothing of a version that failed.
    await factsSent.catch(() => {});
    shared.drop(key);
    throw error;
  }
}
