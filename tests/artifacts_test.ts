/**
 * The artifact registry: verification at start, hot swap by pointer move (reload, file
 * watch, SIGHUP), refusal of corrupt versions while the previous one keeps serving, and no
 * failed request during swaps under concurrent load.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { writePointer } from "../build/publish.ts";
import { ArtifactRegistry, type ArtifactSpec } from "../serve/stores/artifacts.ts";
import { noPause, type Pause, timerPause } from "../serve/stores/snapshot.ts";
import { type TaxonomyData, taxonomySpec, taxonomySpecWith } from "../serve/occupation/artifact.ts";
import { memoryLogger } from "../serve/http/log.ts";
import { ANSWERS_SNAPSHOT } from "../serve/occupation/answers.ts";
import { readSnapshot } from "../serve/occupation/engine/snapshot.ts";
import { OccupationIndex } from "../serve/occupation/engine/index.ts";
import { readIndexSource } from "../serve/occupation/engine/load.ts";
import { openedFile, readDataFile } from "../serve/stores/duckdb.ts";
import { parseManifest } from "../build/manifest.ts";
import { loadTaxonomy } from "../serve/occupation/artifact.ts";
import { createRouter } from "../serve/http/router.ts";
import { buildFixture, testApp, variantRelease, waitFor } from "./helpers.ts";

/** Builds the fixture (v1) and a variant (v2) into one artifacts folder; current = v2 last built. */
async function twoVersions(artifactsDir: string) {
  const v1 = await buildFixture(artifactsDir);
  const variant = await variantRelease("(variant two)");
  try {
    const v2 = await buildFixture(artifactsDir, variant.dir);
    assert.notEqual(v1.version, v2.version);
    return { v1: v1.version, v2: v2.version };
  } finally {
    await variant.cleanup();
  }
}

async function corrupt(path: string): Promise<void> {
  const file = await Deno.open(path, { write: true });
  await file.seek(4096, Deno.SeekMode.Start);
  await file.write(new TextEncoder().encode("corruption"));
  file.close();
}

async function withRegistry(
  fn: (
    ctx: { dir: string; registry: ArtifactRegistry; logger: ReturnType<typeof memoryLogger> },
  ) => Promise<void>,
  spec = taxonomySpec,
) {
  const dir = await Deno.makeTempDir({ prefix: "test-registry-" });
  const logger = memoryLogger();
  const registry = new ArtifactRegistry(dir, [spec], logger);
  try {
    await fn({ dir, registry, logger });
  } finally {
    await registry.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a corrupt artifact at start is refused and reported", async () => {
  await withRegistry(async ({ dir, registry, logger }) => {
    const built = await buildFixture(dir);
    await corrupt(join(built.dir, "taxonomy.duckdb"));
    await registry.start();
    const [status] = registry.status();
    assert.equal(status.state, "failed");
    assert.equal(status.version, null);
    assert.match(status.problem ?? "", /checksum does not match/);
    assert.equal(registry.acquire("taxonomy"), null);
    assert.ok(logger.lines.some((l) => l.msg === "artifact refused"));
  });
});

Deno.test("a manifest from another normaliser version is refused", async () => {
  await withRegistry(async ({ dir, registry }) => {
    const built = await buildFixture(dir);
    const path = join(built.dir, "manifest.json");
    const manifest = JSON.parse(await Deno.readTextFile(path));
    manifest.normalizer_version = "0";
    await Deno.writeTextFile(path, JSON.stringify(manifest));
    await registry.start();
    assert.match(registry.status()[0].problem ?? "", /normaliser 0/);
  });
});

Deno.test("a manifest that lacks a table the server reads, or names a non-identifier, is refused", async () => {
  await withRegistry(async ({ dir, registry }) => {
    const built = await buildFixture(dir);
    const path = join(built.dir, "manifest.json");
    const manifest = JSON.parse(await Deno.readTextFile(path));
    const tables = manifest.tables;
    manifest.tables = tables.filter((t: { name: string }) => t.name !== "occupation_titles");
    await Deno.writeTextFile(path, JSON.stringify(manifest));
    await registry.start();
    assert.match(registry.status()[0].problem ?? "", /tables missing: occupation_titles/);
    manifest.tables = [...tables, { name: 'x"; DROP', rows: 0, content_hash: "" }];
    await Deno.writeTextFile(path, JSON.stringify(manifest));
    await registry.reload("taxonomy");
    assert.match(registry.status()[0].problem ?? "", /not a plain identifier/);
  });
});

Deno.test("a version loads from its snapshots without opening its data file; opened, its row counts are checked", async () => {
  await withRegistry(async ({ dir, registry }) => {
    const built = await buildFixture(dir);
    const path = join(built.dir, "manifest.json");
    const manifest = JSON.parse(await Deno.readTextFile(path));
    manifest.tables[0].rows += 1;
    await Deno.writeTextFile(path, JSON.stringify(manifest));
    // Everything the taxonomy serves comes from the build's snapshots: the data file (its
    // checksum verified) is not opened, so its tables are not counted.
    await registry.start();
    assert.equal(registry.status()[0].state, "loaded");
    const data = registry.acquire<TaxonomyData>("taxonomy")!;
    assert.equal(data.artifact.data.answersFrom, "snapshot");
    data.release();
    // Without the answers snapshot the loader opens the data file, and the count is checked.
    await Deno.remove(join(built.dir, ANSWERS_SNAPSHOT));
    const again = new ArtifactRegistry(dir, [taxonomySpec], memoryLogger());
    try {
      await again.start();
      assert.equal(again.status()[0].state, "failed");
      assert.match(again.status()[0].problem ?? "", /row count does not match its manifest/);
    } finally {
      await again.close();
    }
  });
});

Deno.test("loads at start do not pause; reloads pause on a timer; the data file is checked beside the load", async () => {
  const paused: Pause[] = [];
  let opened = 0;
  // The taxonomy spec, recording how it is told to pause and whether it opened the data file.
  const spec: ArtifactSpec<TaxonomyData> = {
    ...taxonomySpec,
    load: (tables, manifest, dir, pause) => {
      paused.push(pause);
      const counted = async () => (opened++, await tables());
      return taxonomySpec.load(counted, manifest, dir, pause);
    },
  };
  await withRegistry(async ({ dir, registry }) => {
    const { v1, v2 } = await twoVersions(dir);
    await writePointer(join(dir, "taxonomy"), v1);
    await registry.start();
    await writePointer(join(dir, "taxonomy"), v2);
    await registry.reload("taxonomy");
    assert.deepEqual(paused, [noPause, timerPause]);
    assert.equal(registry.status()[0].version, v2);
    // A version whose snapshots load without its data file is still refused when the file does
    // not match its manifest, and its data file is never opened.
    await writePointer(join(dir, "taxonomy"), v1);
    await corrupt(join(dir, "taxonomy", v1, "taxonomy.duckdb"));
    await registry.reload("taxonomy");
    assert.match(registry.status()[0].problem ?? "", /data file checksum does not match/);
    assert.equal(registry.status()[0].version, v2);
    assert.equal(opened, 0);
  }, spec);
});

Deno.test("loading is true while a version loads, at start and in a swap, and false after, refused or not", async () => {
  const during: boolean[] = [];
  let registry!: ArtifactRegistry;
  const spec: ArtifactSpec<TaxonomyData> = {
    ...taxonomySpec,
    load: (tables, manifest, dir, pause) => {
      during.push(registry.loading);
      return taxonomySpec.load(tables, manifest, dir, pause);
    },
  };
  await withRegistry(async (ctx) => {
    registry = ctx.registry;
    const { v1, v2 } = await twoVersions(ctx.dir);
    await writePointer(join(ctx.dir, "taxonomy"), v1);
    assert.equal(registry.loading, false);
    await registry.start();
    assert.equal(registry.loading, false);
    await writePointer(join(ctx.dir, "taxonomy"), v2);
    await registry.reload("taxonomy");
    assert.equal(registry.loading, false);
    await corrupt(join(ctx.dir, "taxonomy", v1, "taxonomy.duckdb"));
    await writePointer(join(ctx.dir, "taxonomy"), v1);
    await registry.reload("taxonomy");
    assert.match(registry.status()[0].problem ?? "", /refused/);
    assert.equal(registry.loading, false, "a refused version is no longer loading");
    assert.deepEqual(during, [true, true, true]);
  }, spec);
});

Deno.test("hot swap: a moved pointer switches new leases; the old version closes when released", async () => {
  await withRegistry(async ({ dir, registry }) => {
    const { v1, v2 } = await twoVersions(dir);
    await writePointer(join(dir, "taxonomy"), v1);
    await registry.start();
    const held = registry.acquire<TaxonomyData>("taxonomy")!;
    assert.equal(held.artifact.version, v1);
    await writePointer(join(dir, "taxonomy"), v2);
    await registry.reload("taxonomy");
    const fresh = registry.acquire<TaxonomyData>("taxonomy")!;
    assert.equal(fresh.artifact.version, v2);
    assert.equal(held.artifact.closed, false, "a version in use stays open");
    const request = { query: { title: "chief executive" }, options: { limit: 3, semantic: false } };
    const ranked = await held.artifact.data.engine.rank(request);
    assert.ok(ranked.results.length > 0, "its index still ranks");
    held.release();
    assert.equal(held.artifact.closed, true, "the retired version closes with its last lease");
    await assert.rejects(held.artifact.data.engine.rank(request), /closed/);
    fresh.release();
    assert.equal(fresh.artifact.closed, false);
  });
});

Deno.test("hot swap to a corrupt version is refused; the previous version keeps serving", async () => {
  await withRegistry(async ({ dir, registry, logger }) => {
    const { v1, v2 } = await twoVersions(dir);
    await writePointer(join(dir, "taxonomy"), v1);
    await registry.start();
    await corrupt(join(dir, "taxonomy", v2, "taxonomy.duckdb"));
    await writePointer(join(dir, "taxonomy"), v2);
    await registry.reload("taxonomy");
    const [status] = registry.status();
    assert.equal(status.state, "loaded");
    assert.equal(status.version, v1);
    assert.match(status.problem ?? "", new RegExp(`${v2} refused: data file checksum`));
    const refused = logger.lines.find((l) => l.msg === "artifact refused");
    assert.equal(refused?.serving, v1);
    await registry.use<TaxonomyData, void>("taxonomy", (a) => {
      assert.equal(a.version, v1);
      assert.ok(a.data.occupations.size > 30);
    });
    await writePointer(join(dir, "taxonomy"), v1);
    await registry.reload("taxonomy");
    assert.equal(registry.status()[0].problem, null, "pointer back on the served version");
  });
});

Deno.test("the file watch and SIGHUP both pick up a new pointer", async () => {
  await withRegistry(async ({ dir, registry }) => {
    const { v1, v2 } = await twoVersions(dir);
    await writePointer(join(dir, "taxonomy"), v1);
    await registry.start();
    registry.watchPointers();
    await writePointer(join(dir, "taxonomy"), v2);
    await waitFor(() => registry.status()[0].version === v2);
  });
  await withRegistry(async ({ dir, registry }) => {
    const { v1, v2 } = await twoVersions(dir);
    await writePointer(join(dir, "taxonomy"), v1);
    await registry.start();
    registry.reloadOnSighup(); // no file watch here: only the signal can trigger the reload
    await writePointer(join(dir, "taxonomy"), v2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(registry.status()[0].version, v1, "nothing reloads without a trigger");
    Deno.kill(Deno.pid, "SIGHUP");
    await waitFor(() => registry.status()[0].version === v2);
  });
});

Deno.test("hot swap under concurrent requests: none fails, each sees one consistent version", async () => {
  const ctx = await testApp();
  try {
    const { v1, v2 } = await twoVersions(ctx.artifactsDir);
    const router = createRouter();
    // A request that holds its lease across awaits, as handlers ranking in the worker do.
    router.get("/count", async (c) => {
      const result = await ctx.artifacts.use<TaxonomyData, { version: string; count: number }>(
        "taxonomy",
        async (a) => {
          const before = a.version;
          const ranked = await a.data.engine.rank({
            query: { title: "chief executive" },
            options: { limit: 3, semantic: false },
          });
          assert.ok(ranked.results.length > 0);
          await new Promise((resolve) => setTimeout(resolve, 2));
          assert.equal(a.version, before);
          return { version: a.version, count: a.data.answers.codes.length };
        },
      );
      return c.json(result);
    });
    ctx.app.route("/test", router);
    // Sixteen clients send requests back to back while the pointer flips six times.
    let swapping = true;
    const statuses: number[] = [];
    const versions = new Set<string>();
    const clients = Array.from({ length: 16 }, async () => {
      while (swapping) {
        const res = await ctx.app.request("/test/count");
        statuses.push(res.status);
        const body = await res.json();
        assert.equal(body.count, 43);
        versions.add(body.version);
      }
    });
    for (let i = 0; i < 6; i++) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      await writePointer(join(ctx.artifactsDir, "taxonomy"), i % 2 === 0 ? v1 : v2);
      await ctx.artifacts.reload("taxonomy");
    }
    swapping = false;
    await Promise.all(clients);
    assert.ok(statuses.length > 100, `only ${statuses.length} requests were made`);
    assert.deepEqual(statuses.filter((s) => s !== 200), []);
    assert.deepEqual([...versions].sort(), [v1, v2].sort());
    const ready = await ctx.app.request("/health/ready");
    assert.equal(ready.status, 200);
  } finally {
    await ctx.cleanup();
  }
});

for (const worker of [false, true]) {
  const where = worker ? ", in the ranking worker" : "";
  Deno.test(`the index comes from the build's snapshot; without one it is built, and the log says which${where}`, async () => {
    await withRegistry(async ({ dir, registry, logger }) => {
      const { v1, v2 } = await twoVersions(dir);
      await writePointer(join(dir, "taxonomy"), v1);
      await registry.start();
      const first = registry.acquire<TaxonomyData>("taxonomy")!;
      assert.equal(first.artifact.data.engineFrom, `snapshot${where}`);
      assert.equal(first.artifact.data.engine.runs, worker ? "worker" : "thread");
      first.release();
      await Deno.remove(join(dir, "taxonomy", v2, "engine.snapshot"));
      await writePointer(join(dir, "taxonomy"), v2);
      await registry.reload("taxonomy");
      const second = registry.acquire<TaxonomyData>("taxonomy")!;
      assert.equal(second.artifact.version, v2);
      assert.equal(
        second.artifact.data.engineFrom,
        `built (no snapshot), snapshot written back${where}`,
      );
      // Written back: the version's next load reads the index instead of building it.
      const back = await readSnapshot(join(dir, "taxonomy", v2));
      assert.equal(back.reason, null);
      const ranking = await second.artifact.data.engine.rank({
        query: { title: "Registered Nurse" },
        options: { limit: 1, semantic: true },
      });
      assert.equal(ranking.results[0].onetCode, "29-1141.00");
      const answer = await second.artifact.data.engine.answer({
        route: "classify",
        title: "Registered Nurse",
        debug: false,
        semantic: true,
      });
      assert.ok("body" in answer);
      const body = JSON.parse(new TextDecoder().decode(answer.body));
      assert.equal(body.occupation.onet_code, "29-1141.00");
      second.release();
      const activations = logger.lines.filter((e) => e.msg === "artifact activated");
      assert.deepEqual(activations.map((e) => e.engine), [
        `snapshot${where}`,
        `built (no snapshot), snapshot written back${where}`,
      ]);
      // The retired version's index is gone from wherever it ran.
      await assert.rejects(
        first.artifact.data.engine.rank({
          query: { title: "Registered Nurse" },
          options: { limit: 1, semantic: true },
        }),
        /closed/,
      );
    }, taxonomySpecWith({ worker }));
  });
}

/** Titles ranked to compare two indexes of the fixture release. */
const PROBE_TITLES = [
  "Registered Nurse",
  "software developer",
  "Truck Driver",
  "cashier",
  "Supervisor, bakery",
  "night shift warehouse associate",
];

const PROBE_OPTIONS = { limit: 5, semantic: true };

/** The probe titles' rankings by a loaded version's engine. */
async function rankAll(engine: TaxonomyData["engine"]) {
  const out = [];
  for (const title of PROBE_TITLES) {
    out.push(await engine.rank({ query: { title }, options: PROBE_OPTIONS }));
  }
  return out;
}

// The fixture release is small enough that its reads never interleave; tests/swap_full_test.ts
// holds the full release to the same (where a shared connection did build a partial index).
Deno.test("with neither the engine's nor the answers' snapshot usable, the index built while the answers are encoded is the whole index, and is written back", async () => {
  const dir = await Deno.makeTempDir({ prefix: "test-both-stale-" });
  try {
    const built = await buildFixture(dir);
    const version = join(dir, "taxonomy", built.version);
    const manifest = parseManifest(await Deno.readTextFile(join(version, "manifest.json")));
    const file = join(version, manifest.file.name);
    const reference = new OccupationIndex(await readDataFile(file, readIndexSource));
    const expected = PROBE_TITLES.map((title) => reference.rank({ title }, PROBE_OPTIONS));
    assert.ok(expected.every((r) => r.results.length > 0));
    const removeBoth = async () => {
      await Deno.remove(join(version, "engine.snapshot"));
      await Deno.remove(join(version, ANSWERS_SNAPSHOT));
    };
    // Through one connection (builds and tests), and through the registry (a connection a call).
    await removeBoth();
    const data = await readDataFile(
      file,
      (connection) => loadTaxonomy(openedFile(connection), manifest, version, { worker: true }),
    );
    try {
      assert.equal(
        data.engineFrom,
        "built (no snapshot), snapshot written back, in the ranking worker",
      );
      assert.equal(data.answersFrom, "encoded (no snapshot), snapshot written back");
      assert.deepEqual(await rankAll(data.engine), expected);
    } finally {
      data.engine.close();
    }
    const back = await readSnapshot(version);
    assert.equal(back.reason, null);
    assert.deepEqual(
      PROBE_TITLES.map((title) => back.index!.rank({ title }, PROBE_OPTIONS)),
      expected,
    );

    await removeBoth();
    const registry = new ArtifactRegistry(
      dir,
      [taxonomySpecWith({ worker: true })],
      memoryLogger(),
    );
    try {
      await registry.start();
      await registry.use<TaxonomyData, void>("taxonomy", async ({ data }) => {
        assert.match(data.engineFrom, /^built \(no snapshot\), snapshot written back/);
        assert.deepEqual(await rankAll(data.engine), expected);
      });
    } finally {
      await registry.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
