/**
 * The evidence build on the reviewed fixture snapshots: determinism (two builds, two pack
 * assemblies: same bytes and hashes), the review gate, markers kept as data, OEWS aggregates,
 * the review CLI's registry entries, and RFC 8785 canonical JSON.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { buildFixture, FIXTURE_WORKFORCE } from "./helpers.ts";
import { buildEvidence, EVIDENCE } from "../build/evidence/pipeline.ts";
import { addReview, readRegistry, REVIEWS_DIR } from "../build/evidence/reviews.ts";
import { parseManifest } from "../build/manifest.ts";
import {
  EVIDENCE_SNAPSHOT,
  loadWorkforce,
  type OewsFile,
  type WorkforceData,
} from "../serve/workforce/artifact.ts";
import { assemblePack, canonicalRequest } from "../serve/workforce/pack.ts";
import { canonicalize } from "../serve/text/canonical.ts";
import { openedFile } from "../serve/stores/duckdb.ts";
import { unopened } from "./helpers.ts";
import { sha256File } from "../build/hash.ts";

const INPUTS = { soc: [FIXTURE_WORKFORCE], oews: [FIXTURE_WORKFORCE], qwi: [FIXTURE_WORKFORCE] };

async function open(dir: string, version: string) {
  const manifest = parseManifest(
    await Deno.readTextFile(join(dir, EVIDENCE, version, "manifest.json")),
  );
  const instance = await DuckDBInstance.create(join(dir, EVIDENCE, version, "evidence.duckdb"), {
    access_mode: "READ_ONLY",
  });
  const connection = await instance.connect();
  return {
    manifest,
    connection,
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/**
 * The loaded data with every OEWS row as a plain object and `loadedFrom` blank: rows are objects
 * of oews_columns.ts's class whose figures are built when read, and each holds its file's columns
 * (an assertion failing on those took minutes to print its diff).
 */
function plainRows(data: WorkforceData) {
  const files = (list: OewsFile[]) =>
    list.map((file) => ({
      ...file,
      rows: new Map(
        [...file.rows].map(([occ, rows]) => [
          occ,
          rows.map((row) => ({
            sha256: row.sha256,
            line: row.line,
            naics: row.naics,
            naics_title: row.naics_title,
            own_code: row.own_code,
            occ_code: row.occ_code,
            occ_title: row.occ_title,
            o_group: row.o_group,
            annual_only: row.annual_only,
            hourly_only: row.hourly_only,
            figures: { ...row.figures },
          })),
        ]),
      ),
    }));
  return { ...data, national: files(data.national), sector: files(data.sector), loadedFrom: "" };
}

Deno.test("evidence build: deterministic builds and packs, review gate, markers", async (t) => {
  const a = await Deno.makeTempDir({ prefix: "test-evidence-a-" });
  const b = await Deno.makeTempDir({ prefix: "test-evidence-b-" });
  try {
    await buildFixture(a);
    await buildFixture(b);
    const first = await buildEvidence(a, INPUTS);
    const second = await buildEvidence(b, INPUTS);

    await t.step("two builds publish the same version and table hashes", () => {
      assert.match(first.version, /^M2025-[0-9a-f]{12}$/);
      assert.equal(second.version, first.version);
      assert.deepEqual(second.manifest.tables, first.manifest.tables);
      assert.equal(second.manifest.content_hash, first.manifest.content_hash);
      const again = first.manifest as unknown as { evidence: { oews_vintages: string[] } };
      assert.deepEqual(again.evidence.oews_vintages, ["2025-05", "2024-05"]);
    });

    await t.step("the build's snapshot loads as the same data as the tables", async () => {
      const opened = await open(a, first.version);
      try {
        const dir = join(a, EVIDENCE, first.version);
        const fromTables = await loadWorkforce(openedFile(opened.connection), opened.manifest);
        const fromSnapshot = await loadWorkforce(unopened, opened.manifest, dir);
        assert.equal(fromTables.loadedFrom, "tables");
        assert.equal(fromSnapshot.loadedFrom, "snapshot");
        assert.ok(fromSnapshot.sector[0].rows.size > 0);
        assert.deepEqual(plainRows(fromSnapshot), plainRows(fromTables));
        // A damaged snapshot is not used: the tables are read instead.
        const file = join(dir, EVIDENCE_SNAPSHOT);
        const bytes = await Deno.readFile(file);
        bytes[bytes.length - 5] ^= 0xff;
        await Deno.writeFile(file, bytes);
        const fallback = await loadWorkforce(openedFile(opened.connection), opened.manifest, dir);
        assert.equal(fallback.loadedFrom, "tables, snapshot written back");
        assert.deepEqual(plainRows(fallback), plainRows(fromTables));
        // Written back whole: the next load reads it, without DuckDB.
        const back = await loadWorkforce(unopened, opened.manifest, dir);
        assert.equal(back.loadedFrom, "snapshot");
        assert.deepEqual(plainRows(back), plainRows(fromTables));
      } finally {
        opened.close();
      }
    });

    await t.step("two assemblies from two builds give the same canonical pack", async () => {
      const docs: string[] = [];
      for (const dir of [a, b]) {
        const opened = await open(dir, first.version);
        try {
          const data = await loadWorkforce(openedFile(opened.connection), opened.manifest);
          const request = canonicalRequest(data, { soc_code: "15-1252", country_code: "US" });
          const result = assemblePack(data, request, "ep_00000000000000000000000000000000");
          assert.ok("document" in result);
          docs.push(canonicalize(result.document));
        } finally {
          opened.close();
        }
      }
      assert.equal(docs[1], docs[0]);
      const doc = JSON.parse(docs[0]);
      assert.match(doc.integrity.sha256, /^[0-9a-f]{64}$/);
      assert.equal(doc.occupation.title, "Software Developers");
    });

    await t.step("markers stay data: a '*' wage is null with its marker", async () => {
      const opened = await open(a, first.version);
      try {
        const rows = (await opened.connection.runAndReadAll(
          `SELECT f.value, f.marker FROM oews_figures f JOIN oews_estimates e USING (sha256, line)
           WHERE e.occ_code = '25-2021' AND e.kind = 'oews_national' AND f.measure = 'h_mean'`,
        )).getRowsJS();
        assert.ok(rows.length >= 1);
        for (const [value, marker] of rows) {
          assert.equal(value, null);
          assert.equal(marker, "*");
        }
        const markers = (await opened.connection.runAndReadAll(
          "SELECT DISTINCT marker FROM oews_figures WHERE marker IS NOT NULL ORDER BY 1",
        )).getRowsJS().map((r) => r[0]);
        assert.ok(markers.includes("#") && markers.includes("~"), String(markers));
      } finally {
        opened.close();
      }
    });

    await t.step("an input whose sha256 is not approved is left out, and said so", async () => {
      const registry = await Deno.makeTempDir({ prefix: "test-reviews-" });
      try {
        // Every approved entry but the May 2024 national sample.
        for await (const entry of Deno.readDir(REVIEWS_DIR)) {
          if (entry.name.startsWith("national_M2024_dl_sample")) continue;
          await Deno.copyFile(join(REVIEWS_DIR, entry.name), join(registry, entry.name));
        }
        const result = await buildEvidence(a, { ...INPUTS, reviews: registry, promote: false });
        const details = result.manifest.evidence as {
          oews_vintages: string[];
          left_out: { file: string; reason: string; sha256?: string }[];
        };
        assert.deepEqual(details.oews_vintages, ["2025-05"]);
        const left = details.left_out.find((l) => l.file === "national_M2024_dl_sample.csv");
        assert.ok(left, "the unapproved file is listed");
        assert.match(left.reason, /not approved/);
        assert.equal(
          left.sha256,
          await sha256File(join(FIXTURE_WORKFORCE, "national_M2024_dl_sample.csv")),
        );
        assert.notEqual(result.version, first.version);
      } finally {
        await Deno.remove(registry, { recursive: true });
      }
    });

    await t.step("a SOC code OEWS publishes only in an aggregate points to it", async () => {
      const opened = await open(a, first.version);
      try {
        const data = await loadWorkforce(openedFile(opened.connection), opened.manifest);
        // Every detailed code of the sample is either published itself or in one aggregate.
        for (const file of data.national) {
          for (const [soc, where] of file.publication) {
            assert.ok(file.rows.has(where.occ_code), `${soc} -> ${where.occ_code}`);
            if (where.relation === "exact") assert.equal(where.occ_code, soc);
          }
        }
      } finally {
        opened.close();
      }
    });
  } finally {
    await Deno.remove(a, { recursive: true });
    await Deno.remove(b, { recursive: true });
  }
});

Deno.test("review registry: entries carry sha256, source, vintage, reviewer, date", async () => {
  const registry = await Deno.makeTempDir({ prefix: "test-registry-" });
  try {
    const path = join(FIXTURE_WORKFORCE, "national_M2025_dl_sample.csv");
    const added = await addReview({
      path,
      reviewer: "A. Reviewer",
      notes: "checked against the xlsx",
      caveats: ["excludes the self-employed"],
      on: "2026-11-24",
      topCode: { hourly: 115, annual: 239200 },
    }, registry);
    assert.equal(added.existed, false);
    assert.equal(added.entry.sha256, await sha256File(path));
    assert.equal(added.entry.source, "BLS OEWS national cross-industry estimates");
    assert.equal(added.entry.vintage, "May 2025");
    const again = await addReview({ path, reviewer: "B", notes: "" }, registry);
    assert.equal(again.existed, true, "one entry per content");
    const read = await readRegistry(registry);
    assert.equal(read.size, 1);
    assert.deepEqual(read.get(added.entry.sha256), added.entry);
    await assert.rejects(
      addReview({ path: join(FIXTURE_WORKFORCE, "README.md"), reviewer: "C", notes: "" }, registry),
      /pass --source and --vintage/,
    );
  } finally {
    await Deno.remove(registry, { recursive: true });
  }
});

Deno.test("canonical JSON follows RFC 8785", () => {
  // Members sorted by UTF-16 code units; ECMAScript number and string serialisation.
  assert.equal(
    canonicalize({ b: [1e21, 0.1, -0, 3], a: "é\u2028", "\u20ac": null, "\ud83d\ude00": true }),
    '{"a":"é\u2028","b":[1e+21,0.1,0,3],"\u20ac":null,"\ud83d\ude00":true}',
  );
  assert.equal(canonicalize({ z: { y: 1, x: [] }, a: undefined }), '{"z":{"x":[],"y":1}}');
  assert.throws(() => canonicalize({ n: Number.NaN }));
});
