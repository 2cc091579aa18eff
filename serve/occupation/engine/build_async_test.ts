/**
 * The sliced index build (what a hot swap runs) and the build's snapshot (what a server running
 * the same engine loads) give the same index as the synchronous build.
 */
import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { join } from "node:path";
import { buildFixture } from "../../../tests/helpers.ts";
import { readPointer } from "../../../build/publish.ts";
import { type IndexSource, OccupationIndex } from "./index.ts";
import { hasColumn, readIndexSource } from "./load.ts";
import { readSnapshot, SNAPSHOT_FILE, writeSnapshot } from "./snapshot.ts";

/** Asserts that two indexes answer every query, word and skill lookup identically. */
function assertSame(a: OccupationIndex, b: OccupationIndex, source: IndexSource): void {
  assert.equal(a.hasVectors, b.hasVectors);
  const queries = [
    ...source.titles.map((t) => t.title),
    ...source.occupations.map((o) => o.title.toUpperCase()),
    "Sr. RN - ICU Night Shift, Dallas, TX",
    "CDL-A Truck Driver",
    "bioinformatician",
    "chemotherapist",
    "Regsitered Nurce",
    "Supervisor, trucking",
    "Staff",
    "xqzv",
  ];
  for (const title of queries) {
    for (const semantic of [true, false]) {
      const options = { limit: 10, semantic, features: true };
      assert.equal(
        JSON.stringify(a.rank({ title }, options)),
        JSON.stringify(b.rank({ title }, options)),
        title,
      );
    }
    assert.equal(a.segmentScore(title), b.segmentScore(title));
  }
  const description = "Drive trucks on highways; monitor patients; write software in Python";
  for (const title of ["Staff", "Nurse", "Driver", "Engineer"]) {
    const options = { limit: 10, semantic: true };
    assert.equal(
      JSON.stringify(a.rank({ title, description }, options)),
      JSON.stringify(b.rank({ title, description }, options)),
    );
  }
  const words = new Set(source.occupations.flatMap((o) => o.title.toLowerCase().split(/\W+/)));
  for (const word of [...words, "nurses", "bioinformatic", "zzzz", "nurce"]) {
    assert.equal(a.idf(word), b.idf(word), word);
    assert.equal(a.knows(word), b.knows(word), word);
    assert.equal(a.resolveUnknown(word), b.resolveUnknown(word), word);
  }
  for (const o of source.occupations) {
    const terms = new Set([...o.skills, ...o.technologies].join(" ").toLowerCase().split(/\W+/));
    assert.deepEqual(a.supportedSkills(o.onetCode, terms), b.supportedSkills(o.onetCode, terms));
  }
}

Deno.test("buildAsync and the build's snapshot rank exactly as the constructor's index", async () => {
  const dir = await Deno.makeTempDir({ prefix: "engine-async-" });
  try {
    await buildFixture(dir);
    const taxonomy = join(dir, "taxonomy");
    const file = join(taxonomy, (await readPointer(taxonomy))!, "taxonomy.duckdb");
    const instance = await DuckDBInstance.create(file, { access_mode: "READ_ONLY" });
    const connection = await instance.connect();
    const source = await readIndexSource(connection);
    connection.closeSync();
    instance.closeSync();
    assert.ok(source.vectors, "the fixture is built with vectors: the semantic part is compared");
    assert.ok(
      Object.keys(source.fusion?.biases ?? {}).length > 0,
      "the fixture's fusion has occupation offsets: they are compared",
    );
    assert.ok(
      (source.fusion?.reranker?.roots.length ?? 0) > 0 &&
        source.fusion!.reranker!.feature.some((f) => f >= 0),
      "the fixture's fusion has reranker trees that split: they are compared",
    );

    const sync = new OccupationIndex(source);
    let pauses = 0;
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    const sliced = await OccupationIndex.buildAsync(source, {
      sliceMs: 0, // pause at every step the build offers
      pause: () => new Promise<void>((resolve) => (pauses++, setTimeout(resolve, 0))),
    });
    clearInterval(ticker);
    assert.ok(pauses > 20, `the build paused ${pauses} times`);
    assert.ok(ticks > 0, "timers ran while the index was being built");
    assertSame(sliced, sync, source);

    // The fixture build wrote a snapshot; loaded in slices, it is the same index.
    const version = join(taxonomy, (await readPointer(taxonomy))!);
    let snapshotPauses = 0;
    const loaded = await readSnapshot(version, {
      sliceMs: 0,
      pause: () => new Promise<void>((resolve) => (snapshotPauses++, setTimeout(resolve, 0))),
    });
    assert.equal(loaded.reason, null);
    assert.ok(snapshotPauses > 20, `the snapshot load paused ${snapshotPauses} times`);
    assertSame(loaded.index!, sync, source);
    // Written again from the loaded index in pieces of a few entries (as the full release's large
    // maps and lists are), it loads as the same index.
    const again = await Deno.makeTempDir({ dir, prefix: "again-" });
    await writeSnapshot(again, loaded.index!, { map: 3, list: 2, strings: 5 });
    const written = await Deno.readFile(join(again, SNAPSHOT_FILE));
    const header = JSON.parse(new TextDecoder().decode(written.subarray(0, written.indexOf(10))));
    const names: string[] = header.parts.map((p: { name: string }) => p.name);
    assert.ok(names.filter((n) => n === "terms").length > 2, "the terms map came in pieces");
    assert.ok(names.filter((n) => n === "titleHead").length > 2, "the title heads came in pieces");
    const pieced = await readSnapshot(again);
    assert.equal(pieced.reason, null);
    assertSame(pieced.index!, sync, source);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a snapshot that is absent, damaged or another engine's is not used, and says why", async () => {
  const dir = await Deno.makeTempDir({ prefix: "engine-snapshot-" });
  try {
    await buildFixture(dir);
    const taxonomy = join(dir, "taxonomy");
    const version = join(taxonomy, (await readPointer(taxonomy))!);
    const file = join(version, SNAPSHOT_FILE);
    const good = await Deno.readFile(file);
    assert.equal((await readSnapshot(version)).reason, null);

    const damaged = good.slice();
    damaged[damaged.length - 10] ^= 0xff;
    await Deno.writeFile(file, damaged);
    assert.deepEqual(await readSnapshot(version), {
      index: null,
      reason: "snapshot checksum mismatch",
    });

    const newline = good.indexOf(10);
    const header = JSON.parse(new TextDecoder().decode(good.subarray(0, newline)));
    header.fingerprint = "0".repeat(64);
    const head = new TextEncoder().encode(JSON.stringify(header) + "\n");
    const other = new Uint8Array(head.length + good.length - newline - 1);
    other.set(head);
    other.set(good.subarray(newline + 1), head.length);
    await Deno.writeFile(file, other);
    assert.deepEqual(await readSnapshot(version), {
      index: null,
      reason: "written by other code",
    });

    await Deno.remove(file);
    assert.deepEqual(await readSnapshot(version), { index: null, reason: "no snapshot" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hasColumn tells a fusion table with occupation offsets from an older one", async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    await connection.run(
      `CREATE TABLE ranker_fusion (method VARCHAR, ranker_version VARCHAR, features VARCHAR,
         weights VARCHAR, report VARCHAR)`,
    );
    assert.equal(await hasColumn(connection, "ranker_fusion", "weights"), true);
    assert.equal(await hasColumn(connection, "ranker_fusion", "biases"), false);
    assert.equal(await hasColumn(connection, "no_such_table", "weights"), false);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
});
