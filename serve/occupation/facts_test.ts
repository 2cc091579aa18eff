import assert from "node:assert/strict";
import { join } from "node:path";
import { buildFixture, unopened } from "../../tests/helpers.ts";
import { parseManifest } from "../../build/manifest.ts";
import { openedFile, readDataFile } from "../stores/duckdb.ts";
import { loadTaxonomy, type TaxonomyData } from "./artifact.ts";

const factsOf = (data: TaxonomyData) => ({
  release: data.release,
  attribution: data.attribution,
  occupations: data.occupations,
  calibrations: data.calibrations,
  relatedTexts: data.relatedTexts,
  codes: data.answers.codes,
  offsets: data.answers.offsets,
  bytes: data.answers.bytes,
});

Deno.test("a taxonomy version loads from its snapshots without opening its data file, as from the data file", async () => {
  const artifacts = await Deno.makeTempDir({ prefix: "test-facts-" });
  try {
    const built = await buildFixture(artifacts);
    const dir = join(artifacts, "taxonomy", built.version);
    const manifest = parseManifest(await Deno.readTextFile(join(dir, "manifest.json")));
    const fromTables = await readDataFile(
      join(dir, manifest.file.name),
      (connection) => loadTaxonomy(openedFile(connection), manifest),
    );
    const fromSnapshots = await loadTaxonomy(unopened, manifest, dir);
    try {
      assert.equal(fromTables.answersFrom, "encoded (no folder)");
      assert.equal(fromSnapshots.answersFrom, "snapshot");
      assert.equal(fromSnapshots.engineFrom, "snapshot");
      assert.deepEqual(factsOf(fromSnapshots), factsOf(fromTables));
      assert.ok(
        fromSnapshots.relatedTexts.codes.length > 0 && fromSnapshots.calibrations.has("lexical"),
      );
      const request = {
        route: "candidates" as const,
        title: "registered nurse",
        limit: 3,
        semantic: true,
      };
      assert.deepEqual(
        await fromSnapshots.engine.answer(request),
        await fromTables.engine.answer(request),
      );

      // A snapshot written for another release is not used: the data file is read instead.
      const other = { ...manifest, release: { ...manifest.release, version: "29.9" } };
      await assert.rejects(loadTaxonomy(unopened, other, dir), /opened the data file/);
      const reread = await readDataFile(
        join(dir, manifest.file.name),
        (connection) => loadTaxonomy(openedFile(connection), other, dir),
      );
      assert.equal(
        reread.answersFrom,
        "encoded (unusable snapshot: another release), snapshot written back",
      );
      assert.equal(reread.release, "29.9");
      reread.engine.close();
    } finally {
      fromTables.engine.close();
      fromSnapshots.engine.close();
    }
  } finally {
    await Deno.remove(artifacts, { recursive: true });
  }
});
