/** The sliced index build (what a hot swap runs) gives the same index as the synchronous one. */
import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { join } from "node:path";
import { buildFixture } from "../../../tests/helpers.ts";
import { readPointer } from "../../../build/publish.ts";
import { OccupationIndex } from "./index.ts";
import { readIndexSource } from "./load.ts";

Deno.test("buildAsync pauses between slices and ranks exactly as the constructor's index", async () => {
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
    assert.equal(sliced.hasVectors, sync.hasVectors);

    const queries = [
      ...source.titles.map((t) => t.title),
      ...source.occupations.map((o) => o.title.toUpperCase()),
      "Sr. RN - ICU Night Shift, Dallas, TX",
      "CDL-A Truck Driver",
      "bioinformatician",
      "chemotherapist",
      "Staff",
      "xqzv",
    ];
    for (const title of queries) {
      for (const semantic of [true, false]) {
        const options = { limit: 10, semantic };
        assert.equal(
          JSON.stringify(sliced.rank({ title }, options)),
          JSON.stringify(sync.rank({ title }, options)),
          title,
        );
      }
      assert.equal(sliced.segmentScore(title), sync.segmentScore(title));
    }
    const description = "Drive trucks on highways; monitor patients; write software in Python";
    for (const title of ["Staff", "Nurse", "Driver", "Engineer"]) {
      const options = { limit: 10, semantic: true };
      assert.equal(
        JSON.stringify(sliced.rank({ title, description }, options)),
        JSON.stringify(sync.rank({ title, description }, options)),
      );
    }
    const words = new Set(source.occupations.flatMap((o) => o.title.toLowerCase().split(/\W+/)));
    for (const word of [...words, "nurses", "bioinformatic", "zzzz"]) {
      assert.equal(sliced.idf(word), sync.idf(word), word);
      assert.equal(sliced.knows(word), sync.knows(word), word);
      assert.equal(sliced.resolveUnknown(word), sync.resolveUnknown(word), word);
    }
    for (const o of source.occupations) {
      const terms = new Set([...o.skills, ...o.technologies].join(" ").toLowerCase().split(/\W+/));
      assert.deepEqual(
        sliced.supportedSkills(o.onetCode, terms),
        sync.supportedSkills(o.onetCode, terms),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
