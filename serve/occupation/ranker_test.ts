import assert from "node:assert/strict";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { buildFixture } from "../../tests/helpers.ts";
import { readIndexSource } from "./engine/load.ts";
import { readSnapshot } from "./engine/snapshot.ts";
import { failRankingWorker, LocalRanker, type RankRequest, WorkerRanker } from "./ranker.ts";

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

function requests(): RankRequest[] {
  return TITLES.flatMap((title) => [
    { query: { title }, options: { limit: 10, semantic: true } },
    {
      query: { title, description: "Prepare food, clean the kitchen and manage a small team." },
      options: { limit: 5, semantic: false },
      skills: { terms: ["data", "python", "food", "kitchen", "customer", "service"], count: 5 },
    },
  ]);
}

Deno.test("the ranking worker answers exactly as the index on this thread, from a snapshot or built from the source", async () => {
  const dir = await Deno.makeTempDir({ prefix: "test-ranker-" });
  try {
    const built = await buildFixture(dir);
    const versionDir = join(dir, "taxonomy", built.version);
    const snapshot = await readSnapshot(versionDir);
    assert.ok(snapshot.index, snapshot.reason ?? "");
    const local = new LocalRanker(snapshot.index);
    const instance = await DuckDBInstance.create(join(versionDir, "taxonomy.duckdb"), {
      access_mode: "READ_ONLY",
    });
    const connection = await instance.connect();
    try {
      const fromSnapshot = await WorkerRanker.load(versionDir, () => readIndexSource(connection));
      assert.equal(fromSnapshot.from, "snapshot");
      assert.equal(fromSnapshot.hasVectors, local.hasVectors);
      await Deno.remove(join(versionDir, "engine.snapshot"));
      const rebuilt = await WorkerRanker.load(versionDir, () => readIndexSource(connection));
      assert.equal(rebuilt.from, "built (no snapshot)");
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
        assert.ok(a.some(({ ranking }) => ranking.results.length > 0));
        assert.ok(a.every(({ skills }, i) => all[i].skills || skills.length === 0));
      } finally {
        fromSnapshot.close();
        rebuilt.close();
      }
      await assert.rejects(fromSnapshot.rank(requests()[0]), /closed/);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a ranking worker that dies is replaced: the next rankings load the version again and answer as before", async () => {
  const dir = await Deno.makeTempDir({ prefix: "test-ranker-" });
  try {
    const built = await buildFixture(dir);
    const versionDir = join(dir, "taxonomy", built.version);
    const ranker = await WorkerRanker.load(versionDir, () => {
      throw new Error("the snapshot is there: no source needed");
    });
    try {
      const [request] = requests();
      const before = await ranker.rank(request);
      await failRankingWorker();
      // Several at once after the failure: one reload serves them all.
      const after = await Promise.all([1, 2, 3].map(() => ranker.rank(request)));
      for (const answer of after) assert.deepEqual(answer, before);
    } finally {
      ranker.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
