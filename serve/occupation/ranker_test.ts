import assert from "node:assert/strict";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { buildFixture } from "../../tests/helpers.ts";
import { readIndexSource } from "./engine/load.ts";
import { readSnapshot, SNAPSHOT_FILE } from "./engine/snapshot.ts";
import { parseManifest } from "../../build/manifest.ts";
import { loadTaxonomy, type TaxonomyData, taxonomySpecWith } from "./artifact.ts";
import { ArtifactRegistry } from "../stores/artifacts.ts";
import { openedFile } from "../stores/duckdb.ts";
import { memoryLogger } from "../http/log.ts";
import {
  failRankingWorker,
  LocalRanker,
  rankingWorkerMessages,
  type RankRequest,
  WorkerRanker,
} from "./ranker.ts";
import { type AnswerRequest, encodeRelatedTexts, onlyFacts } from "./respond.ts";

const TITLES = [
  "Registered Nurse",
  "Senior Software Engineer",
  "Supervisor, bakery",
  "Helper - Roofer",
  "CDL Truck Driver (Night Shift)",
  "Accounting Clerk II",
  "Team Member",
  "xqzv plorf",
  "",
];

const DESCRIPTION = "Prepare food, clean the kitchen and manage a small team.";

function requests(): RankRequest[] {
  return TITLES.flatMap((title) => [
    { query: { title }, options: { limit: 10, semantic: true } },
    { query: { title, description: DESCRIPTION }, options: { limit: 5, semantic: false } },
  ]);
}

/** Every route's body for each title, with and without a description and the vectors. */
function answerRequests(): AnswerRequest[] {
  return TITLES.flatMap((title) =>
    [true, false].flatMap((semantic): AnswerRequest[] => [
      { route: "candidates", title, limit: 3, semantic },
      { route: "analyze", title, description: DESCRIPTION, debug: true, semantic },
      { route: "classify", title, debug: false, semantic },
    ])
  );
}

Deno.test("the ranking worker answers exactly as the index on this thread, from a snapshot or built from the source", async () => {
  const dir = await Deno.makeTempDir({ prefix: "test-ranker-" });
  try {
    const built = await buildFixture(dir);
    const versionDir = join(dir, "taxonomy", built.version);
    const snapshot = await readSnapshot(versionDir);
    assert.ok(snapshot.index, snapshot.reason ?? "");
    const instance = await DuckDBInstance.create(join(versionDir, "taxonomy.duckdb"), {
      access_mode: "READ_ONLY",
    });
    const connection = await instance.connect();
    try {
      const manifest = parseManifest(await Deno.readTextFile(join(versionDir, "manifest.json")));
      const facts = await loadTaxonomy(openedFile(connection), manifest);
      const local = new LocalRanker(snapshot.index, facts);
      const source = () => readIndexSource(connection);
      const fromSnapshot = await WorkerRanker.load(versionDir, source, facts);
      assert.equal(fromSnapshot.from, "snapshot");
      assert.equal(fromSnapshot.hasVectors, local.hasVectors);
      await Deno.remove(join(versionDir, "engine.snapshot"));
      const rebuilt = await WorkerRanker.load(versionDir, source, facts);
      assert.equal(rebuilt.from, "built (no snapshot), snapshot written back");
      try {
        // Sent all at once: answers come back to the right callers, in any interleaving.
        const all = requests();
        const [a, b, c] = await Promise.all([
          Promise.all(all.map((r) => local.rank(r))),
          Promise.all(all.map((r) => fromSnapshot.rank(r))),
          Promise.all(all.map((r) => rebuilt.rank(r))),
        ]);
        assert.deepEqual(b, a);
        assert.deepEqual(c, a);
        assert.ok(a.some((ranking) => ranking.results.length > 0));
        // The bodies, made in the worker, are the same bytes as on this thread.
        const bodies = answerRequests();
        const [x, y] = await Promise.all([
          Promise.all(bodies.map((r) => local.answer(r))),
          Promise.all(bodies.map((r) => rebuilt.answer(r))),
        ]);
        assert.deepEqual(y, x);
        assert.ok(x.some((answer) => "insufficient" in answer), "no classify without a match");
        assert.ok(
          x.some((answer) =>
            "body" in answer && JSON.parse(new TextDecoder().decode(answer.body)).results?.[0]
          ),
          "no analyze result",
        );
        // Analyze lists each result's first five related occupations, from the facts the worker
        // is sent (their JSON per occupation): the first five its profile lists.
        const sent = onlyFacts(facts);
        assert.deepEqual(Object.keys(sent).sort(), [
          "attribution",
          "calibrations",
          "relatedTexts",
          "release",
        ]);
        let listed = 0;
        for (const answer of y) {
          if (!("body" in answer)) continue;
          const body = JSON.parse(new TextDecoder().decode(answer.body));
          for (const result of body.results ?? []) {
            const profile = facts.answers.profile(result.onet_code);
            assert.ok(profile, result.onet_code);
            const related = JSON.parse(new TextDecoder().decode(profile)).related_occupations;
            assert.deepEqual(result.related_occupations, related.slice(0, 5));
            if (related.length > 5) listed++;
          }
        }
        assert.ok(listed > 0, "no result with more than five related occupations");
      } finally {
        fromSnapshot.close();
        rebuilt.close();
      }
      await assert.rejects(fromSnapshot.rank(requests()[0]), /closed/);

      // The facts may still be loading when the index load starts (the worker gets them in a
      // message of their own): the answers are the same once they come; facts that fail fail it.
      const later = Promise.withResolvers<typeof facts>();
      const loading = WorkerRanker.load(versionDir, source, later.promise);
      setTimeout(() => later.resolve(facts), 20);
      const late = await loading;
      try {
        const bodies = answerRequests();
        const [x, y] = await Promise.all([
          Promise.all(bodies.map((r) => local.answer(r))),
          Promise.all(bodies.map((r) => late.answer(r))),
        ]);
        assert.deepEqual(y, x);
      } finally {
        late.close();
      }
      await assert.rejects(
        WorkerRanker.load(versionDir, source, Promise.reject(new Error("no facts here"))),
        /no facts here/,
      );
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Runs `body` on a worker ranker of the fixture build, loaded from its snapshot with no
 * calibrations (so an analyze answer, which needs one, throws in the worker).
 */
async function withWorkerRanker(body: (ranker: WorkerRanker) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "test-ranker-" });
  try {
    const built = await buildFixture(dir);
    const versionDir = join(dir, "taxonomy", built.version);
    const ranker = await WorkerRanker.load(versionDir, () => {
      throw new Error("the snapshot is there: no source needed");
    }, {
      release: built.version,
      attribution: "",
      calibrations: new Map(),
      relatedTexts: encodeRelatedTexts(new Map()),
    });
    try {
      await body(ranker);
    } finally {
      ranker.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a ranking worker that dies is replaced: the next rankings load the version again and answer as before", async () => {
  await withWorkerRanker(async (ranker) => {
    const [request] = requests();
    const before = await ranker.rank(request);
    await failRankingWorker();
    // Several at once after the failure: one reload serves them all.
    const after = await Promise.all([1, 2, 3].map(() => ranker.rank(request)));
    for (const answer of after) assert.deepEqual(answer, before);
  });
});

Deno.test("rankings asked for at once go to the worker in one message; one that fails there fails alone", async () => {
  await withWorkerRanker(async (ranker) => {
    const [request] = requests();
    const alone = await ranker.rank(request);
    const analyze: AnswerRequest = {
      route: "analyze",
      title: "Registered Nurse",
      debug: false,
      semantic: false,
    };
    const posted = rankingWorkerMessages();
    const [first, failed, last] = await Promise.allSettled([
      ranker.rank(request),
      ranker.answer(analyze),
      ranker.rank(request),
    ]);
    assert.equal(rankingWorkerMessages() - posted, 1, "one message for the three");
    assert.deepEqual(first, { status: "fulfilled", value: alone });
    assert.equal(failed.status, "rejected");
    assert.deepEqual(last, { status: "fulfilled", value: alone });
  });
});

Deno.test("a version without an engine snapshot is built again from its data file when the worker dies after the registry closed it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "test-ranker-" });
  const registry = new ArtifactRegistry(dir, [taxonomySpecWith({ worker: true })], memoryLogger());
  try {
    const built = await buildFixture(dir);
    await Deno.remove(join(dir, "taxonomy", built.version, SNAPSHOT_FILE));
    await registry.start();
    await registry.use<TaxonomyData, void>("taxonomy", async ({ data }) => {
      assert.match(
        data.engineFrom,
        /^built \(no snapshot\), snapshot written back, in the ranking worker$/,
      );
      // Gone again (a folder the server cannot write), so the reload must build from the source.
      await Deno.remove(join(dir, "taxonomy", built.version, SNAPSHOT_FILE));
      const [request] = requests();
      const before = await data.engine.rank(request);
      await failRankingWorker();
      // The loader's connection is closed by now: the source is read from the file again.
      assert.deepEqual(await data.engine.rank(request), before);
    });
  } finally {
    await registry.close();
    await Deno.remove(dir, { recursive: true });
  }
});
