/**
 * The worker that owns the ranking indexes when the server ranks off its request thread
 * (ranker.ts, OCCUPATION_WORKER): the ranking is pure CPU work, about two thirds of an uncached
 * candidates request, so here it runs on the machine's other core while the request thread parses,
 * meters and answers. One index per loaded taxonomy version, by a key the request thread gives.
 *
 * Messages, answered by id: `load` (the version's engine snapshot), `facts` (what its answers
 * need, sent while it loads), `build` (from the index source, when the snapshot could not be
 * used; the built index's snapshot is then written back into the version's folder), `rank`,
 * `answer` (the JSON body of a candidates, analyze or classify request: respond.ts), `batch`
 * (rankings and answers sent together, answered in one reply, each item's result or error in
 * order), `drop` (and `fail`, which tests use to crash the worker). While the worker holds another version, loading,
 * building and writing back pause between slices, so rankings on it go on.
 */
/// <reference lib="deno.worker" />
import { OccupationIndex } from "./engine/index.ts";
import { readSnapshot, writeSnapshot } from "./engine/snapshot.ts";
import { noPause, PIECES, timerPause, writeBack } from "../stores/snapshot.ts";
import type { BatchedRequest, RankerReply, RankerRequest } from "./ranker.ts";
import { answerOn, type VersionFacts } from "./respond.ts";
import { collectGarbage } from "../memory.ts";

const indexes = new Map<number, OccupationIndex>();
/** Each version's facts, by the same key: they come in a message of their own. */
const factsOf = new Map<number, VersionFacts>();

function loaded(key: number): OccupationIndex {
  const found = indexes.get(key);
  if (!found) throw new Error(`no ranking index ${key} in the worker`);
  return found;
}

/**
 * Loads and builds pause on a timer while the worker holds another index (its rankings go on
 * meanwhile); with none, nothing waits on them (a server's start), so they do not pause.
 */
const pauseNow = () => (indexes.size > 0 ? timerPause : noPause);

function reply(message: RankerReply, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

async function handle(message: RankerRequest): Promise<void> {
  switch (message.op) {
    case "load": {
      const read = await readSnapshot(message.dir, { pause: pauseNow() });
      if (read.index) indexes.set(message.key, read.index);
      // The snapshot's bytes and the load's scratch are garbage now (about 40 MB): a full
      // collection here (20-30 ms, between two rankings) returns them before traffic does.
      collectGarbage();
      reply({
        id: message.id,
        ok: true,
        value: read.index ? { hasVectors: read.index.hasVectors } : { reason: read.reason },
      });
      return;
    }
    case "build": {
      const index = await OccupationIndex.buildAsync(message.source, { pause: pauseNow() });
      indexes.set(message.key, index);
      // The next load of this version reads the index instead of building it again.
      const written = await writeBack(() =>
        writeSnapshot(message.dir, index, PIECES, { pause: pauseNow() })
      );
      collectGarbage();
      reply({ id: message.id, ok: true, value: { hasVectors: index.hasVectors, written } });
      return;
    }
    case "facts":
      factsOf.set(message.key, message.facts);
      reply({ id: message.id, ok: true, value: null });
      return;
    case "rank":
    case "answer": {
      const transfer: Transferable[] = [];
      reply(answerItem(message, transfer), transfer);
      return;
    }
    case "batch": {
      // One reply for the whole batch, each item's answer or error in order. Replying in groups
      // as the batch went (every 0.5 ms of work) kept most of the request thread's cost per
      // message: 2,579 req/s against 2,912 in one reply and 2,488 unbatched (notes/issue12.md).
      const transfer: Transferable[] = [];
      const batch = message.items.map((item): RankerReply => {
        try {
          return answerItem(item, transfer);
        } catch (error) {
          return { id: item.id, ok: false, error: errorText(error) };
        }
      });
      reply({ id: message.id, ok: true, batch }, transfer);
      return;
    }
    case "fail":
      // Thrown from a timer, outside any handler: the worker dies and its host sees the error.
      setTimeout(() => {
        throw new Error("the ranking worker was told to fail");
      });
      return;
    case "drop":
      indexes.delete(message.key);
      factsOf.delete(message.key);
      collectGarbage(); // the dropped version's index
      reply({ id: message.id, ok: true, value: null });
      return;
  }
}

/** A ranking's or an answer's reply; an answer's body buffer joins `transfer` (moved, not copied). */
function answerItem(message: BatchedRequest, transfer: Transferable[]): RankerReply {
  const index = loaded(message.key);
  if (message.op === "rank") {
    const { query, options } = message.request;
    return { id: message.id, ok: true, value: index.rank(query, options) };
  }
  const facts = factsOf.get(message.key);
  if (!facts) throw new Error(`no facts for ranking index ${message.key} in the worker`);
  const value = answerOn(index, facts, message.request);
  if ("body" in value) transfer.push(value.body.buffer);
  return { id: message.id, ok: true, value };
}

const errorText = (error: unknown) => error instanceof Error ? error.message : String(error);

self.onmessage = (event: MessageEvent<RankerRequest>) => {
  const message = event.data;
  handle(message).catch((error) => reply({ id: message.id, ok: false, error: errorText(error) }));
};
