/**
 * Build tests across release families and header styles. The fixtures hold the rows of
 * fixtures/onet-sample (29.3, named headers) rewritten in other layouts:
 *
 * - fixtures/onet-sample-30-1: the 30.1 text layout (lean headers, `n/a`, CRLF);
 * - a mixed folder: that one with the named Skills.txt and Knowledge.txt of the 29.3 sample,
 *   as the shared 30.1 release has its Excel-converted files;
 * - fixtures/onet-sample-30-3: the 30.3 file set (Job Titles, Essential and Transferable
 *   Skills, Software Skills keyed by element id).
 *
 * Same rows, so every table must hash exactly as the 29.3 golden files in tests/golden/taxonomy
 * say, except what the release itself changes: the attribution, and in 30.3 the technology
 * categories. These are golden tests of each layout against the one reviewed golden set.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { type BuildResult, buildTaxonomy } from "../build/pipeline.ts";
import { InputError } from "../build/sources/onet/read.ts";
import { familyOf, RELEASE_FAMILIES } from "../build/sources/onet/files.ts";
import { listNames, withTempDir } from "./fs.ts";
import { FIXTURE_EMBEDDINGS, FIXTURE_OEWS, FIXTURE_ONET } from "./helpers.ts";

const LEAN_30_1 = fileURLToPath(new URL("../fixtures/onet-sample-30-1", import.meta.url));
const SAMPLE_30_3 = fileURLToPath(new URL("../fixtures/onet-sample-30-3", import.meta.url));
const GOLDEN_DIR = fileURLToPath(new URL("./golden/taxonomy/", import.meta.url));

type Row = Record<string, unknown>;

/** The reviewed golden content hash of each table of the 29.3 sample build. */
async function goldenHashes(): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const name of await listNames(GOLDEN_DIR)) {
    const golden = JSON.parse(await Deno.readTextFile(join(GOLDEN_DIR, name)));
    hashes.set(name.replace(/\.json$/, ""), golden.content_hash);
  }
  return hashes;
}

/** Copies every file of the given folders, later ones overriding, into a new folder. */
async function compose(into: string, ...dirs: string[]): Promise<string> {
  const dir = join(into, "onet");
  await Deno.mkdir(dir);
  for (const from of dirs) {
    for await (const entry of Deno.readDir(from)) {
      if (entry.isFile) await Deno.copyFile(join(from, entry.name), join(dir, entry.name));
    }
  }
  return dir;
}

/** Runs a query on a published taxonomy.duckdb, read-only. */
async function query(result: BuildResult, sql: string): Promise<Row[]> {
  const instance = await DuckDBInstance.create(join(result.dir, "taxonomy.duckdb"), {
    access_mode: "READ_ONLY",
    threads: "1",
  });
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJS() as Row[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Builds a release folder with the fixture embeddings and OEWS sample into a temporary folder. */
function build(onet: string, tmp: string): Promise<BuildResult> {
  return buildTaxonomy(onet, join(tmp, "artifacts"), undefined, {
    embeddings: FIXTURE_EMBEDDINGS,
    oews: FIXTURE_OEWS,
  });
}

/** Asserts every table hashes as its golden file, except the named ones (which must differ). */
async function assertGoldenExcept(result: BuildResult, differ: string[]): Promise<void> {
  const golden = await goldenHashes();
  assert.deepEqual(
    result.manifest.tables.map((t) => t.name).sort(),
    [...golden.keys()].sort(),
  );
  for (const table of result.manifest.tables) {
    if (differ.includes(table.name)) {
      assert.notEqual(table.content_hash, golden.get(table.name), `${table.name} should differ`);
    } else {
      assert.equal(table.content_hash, golden.get(table.name), `${table.name} differs from golden`);
    }
  }
}

/** The attribution row names the release that was read. */
async function assertAttribution(result: BuildResult, release: string, label: string) {
  const [row] = await query(result, "SELECT * FROM attribution");
  assert.equal(row.release, release);
  assert.equal(row.release_label, label);
  assert.match(row.text as string, new RegExp(`O\\*NET ${release.replace(".", "\\.")} Database`));
  assert.equal(result.manifest.attribution, row.text);
  assert.match(
    result.manifest.version,
    new RegExp(`^${release.replace(".", "\\.")}-[0-9a-f]{12}$`),
  );
}

Deno.test("30.1 text layout (lean headers, n/a, CRLF): the 29.3 golden tables", async () => {
  await withTempDir("build-releases-", async (tmp) => {
    const result = await build(LEAN_30_1, tmp);
    await assertGoldenExcept(result, ["attribution"]);
    await assertAttribution(result, "30.1", "Sample extract in the 30.1 text layout");
    assert.deepEqual(result.manifest.release.version, "30.1");
    assert.deepEqual(result.manifest.onet_layout, { family: "30.0-30.2", header_style: "lean" });
    const styles = Object.fromEntries(
      result.manifest.inputs.filter((i) => i.header_style).map((i) => [i.file, i.header_style]),
    );
    assert.deepEqual(styles, {
      "Occupation Data.txt": "common",
      "Alternate Titles.txt": "lean",
      "Sample of Reported Titles.txt": "lean",
      "Task Statements.txt": "lean",
      "Skills.txt": "lean",
      "Knowledge.txt": "lean",
      "Technology Skills.txt": "lean",
      "Related Occupations.txt": "lean",
      "Job Zones.txt": "lean",
      "Content Model Reference.txt": "common",
    });
    // n/a is an empty cell: no short title, task type or N reads as the text "n/a"
    const [naCount] = await query(
      result,
      "SELECT (SELECT count(*) FROM occupation_titles WHERE title = 'n/a') + " +
        "(SELECT count(*) FROM tasks WHERE task_type = 'n/a') AS n",
    );
    assert.equal(Number(naCount.n), 0);
  });
});

Deno.test("mixed folder: lean files with named (Excel-converted) Skills and Knowledge", async () => {
  await withTempDir("build-releases-", async (tmp) => {
    const onet = await compose(tmp, LEAN_30_1);
    for (const file of ["Skills.txt", "Knowledge.txt"]) {
      await Deno.copyFile(join(FIXTURE_ONET, file), join(onet, file));
    }
    const result = await build(onet, tmp);
    await assertGoldenExcept(result, ["attribution"]);
    assert.deepEqual(result.manifest.onet_layout, { family: "30.0-30.2", header_style: "mixed" });
    const named = result.manifest.inputs.filter((i) => i.header_style === "named");
    assert.deepEqual(named.map((i) => i.file), ["Skills.txt", "Knowledge.txt"]);
  });
});

Deno.test("named headers under a 30.x Read Me are read as the Excel layout", async () => {
  await withTempDir("build-releases-", async (tmp) => {
    const onet = await compose(tmp, FIXTURE_ONET);
    await Deno.copyFile(join(LEAN_30_1, "Read Me.txt"), join(onet, "Read Me.txt"));
    const result = await build(onet, tmp);
    await assertGoldenExcept(result, ["attribution"]);
    assert.deepEqual(result.manifest.onet_layout, { family: "30.0-30.2", header_style: "named" });
  });
});

Deno.test("29.3 sample: the 29.x family and named headers in the manifest", async () => {
  await withTempDir("build-releases-", async (tmp) => {
    const result = await build(FIXTURE_ONET, tmp);
    assert.deepEqual(result.manifest.onet_layout, { family: "29.x", header_style: "named" });
    await assertAttribution(result, "29.3", "Sample extract for tests and first run");
  });
});

Deno.test("30.3 file set: Job Titles, Essential/Transferable and Software Skills", async () => {
  await withTempDir("build-releases-", async (tmp) => {
    const result = await build(SAMPLE_30_3, tmp);
    // Same titles, ratings, tasks and calibration; technology categories are element ids now.
    await assertGoldenExcept(result, ["attribution", "technologies"]);
    await assertAttribution(result, "30.3", "Sample extract in the 30.3 text layout");
    assert.deepEqual(result.manifest.onet_layout, { family: "30.3+", header_style: "lean" });
    const files = result.manifest.inputs.map((i) => i.file);
    for (const file of ["Job Titles.txt", "Essential Skills.txt", "Software Skills.txt"]) {
      assert.ok(files.includes(file), file);
    }
    for (const file of ["Alternate Titles.txt", "Skills.txt", "Technology Skills.txt"]) {
      assert.ok(!files.includes(file), file);
    }
    const golden = JSON.parse(await Deno.readTextFile(join(GOLDEN_DIR, "technologies.json")));
    const [counts] = await query(
      result,
      "SELECT count(*) AS n, count(*) FILTER (WHERE commodity_code LIKE '2.E.%') AS by_element " +
        "FROM technologies",
    );
    assert.equal(Number(counts.n), golden.rows);
    assert.equal(Number(counts.by_element), golden.rows);
    const [quickbooks] = await query(
      result,
      "SELECT * FROM technologies WHERE onet_code = '11-1011.00' AND example = 'Intuit QuickBooks'",
    );
    assert.equal(quickbooks.commodity_title, "Accounting software");
    assert.equal(quickbooks.hot_technology, true);
    // Essential (2.A) and Transferable (2.B) skills are both skills
    const domains = await query(
      result,
      "SELECT DISTINCT substr(element_id, 1, 3) AS branch FROM occupation_ratings " +
        "WHERE domain = 'skill' ORDER BY branch",
    );
    assert.deepEqual(domains.map((d) => d.branch), ["2.A", "2.B"]);
  });
});

/** Builds an edited copy of a fixture and returns the InputError it fails with. */
async function inputError(
  tmp: string,
  from: string,
  edit: (dir: string) => Promise<void>,
): Promise<InputError> {
  const onet = await compose(await Deno.makeTempDir({ dir: tmp }), from);
  await edit(onet);
  const artifacts = join(onet, "..", "artifacts");
  const error = await buildTaxonomy(onet, artifacts).then(
    () => assert.fail("build succeeded"),
    (e) => e,
  );
  assert.ok(error instanceof InputError, `expected InputError, got ${error}`);
  assert.deepEqual(await listNames(join(artifacts, "taxonomy")), []);
  return error;
}

/** Replaces the first occurrence of a text in a release file. */
async function replaceIn(dir: string, file: string, from: string, to: string): Promise<void> {
  const text = await Deno.readTextFile(join(dir, file));
  assert.ok(text.includes(from), `${file} has no ${from}`);
  await Deno.writeTextFile(join(dir, file), text.replace(from, to));
}

Deno.test("layout rules: what each style accepts and refuses", async (t) => {
  await withTempDir("build-releases-", async (tmp) => {
    await t.step("a header of neither style names both", async () => {
      const error = await inputError(
        tmp,
        LEAN_30_1,
        (dir) => replaceIn(dir, "Job Zones.txt", "Job Zone\t", "Zone\t"),
      );
      assert.equal(error.file, "Job Zones.txt");
      assert.equal(error.line, 1);
      assert.match(error.rule, /header must be "O\*NET-SOC Code \| Title \| Job Zone .*\(named\)/);
      assert.match(error.rule, / or "O\*NET-SOC Code \| Job Zone \| Date .*\(lean\)/);
    });

    await t.step("n/a in a required lean cell is an empty cell", async () => {
      const error = await inputError(
        tmp,
        LEAN_30_1,
        (dir) => replaceIn(dir, "Task Statements.txt", "\tIncumbent\r\n", "\tn/a\r\n"),
      );
      assert.equal(error.file, "Task Statements.txt");
      assert.match(error.rule, /"Domain Source" must not be empty/);
    });

    await t.step("n/a is not an empty cell in the named style", async () => {
      const error = await inputError(tmp, FIXTURE_ONET, async (dir) => {
        const lines = (await Deno.readTextFile(join(dir, "Skills.txt"))).split("\n");
        const cells = lines[1].split("\t");
        cells[7] = "n/a"; // N
        lines[1] = cells.join("\t");
        await Deno.writeTextFile(join(dir, "Skills.txt"), lines.join("\n"));
      });
      assert.equal(error.file, "Skills.txt");
      assert.equal(error.line, 2);
      assert.match(error.rule, /"N" must be a number \(found "n\/a"\)/);
    });

    await t.step("a 30.3 folder must have the 30.3 files", async () => {
      const error = await inputError(tmp, SAMPLE_30_3, async (dir) => {
        await Deno.rename(join(dir, "Job Titles.txt"), join(dir, "Alternate Titles.txt"));
      });
      assert.equal(error.file, "Job Titles.txt");
      assert.match(error.rule, /required file is missing/);
    });

    await t.step("a release no family declares is refused by its Read Me", async () => {
      const error = await inputError(
        tmp,
        FIXTURE_ONET,
        (dir) => replaceIn(dir, "Read Me.txt", "O*NET 29.3 Database", "O*NET 28.3 Database"),
      );
      assert.equal(error.file, "Read Me.txt");
      assert.equal(error.line, 1);
      assert.match(
        error.rule,
        /O\*NET 28\.3 has no declared file set \(declared: 29\.x, 30\.0-30\.2, 30\.3\+\)/,
      );
    });
  });
});

Deno.test("familyOf maps versions to the declared families", () => {
  const id = (v: string) => familyOf(v)?.id ?? null;
  assert.equal(id("29.0"), "29.x");
  assert.equal(id("29.3"), "29.x");
  assert.equal(id("30.0"), "30.0-30.2");
  assert.equal(id("30.2"), "30.0-30.2");
  assert.equal(id("30.3"), "30.3+");
  assert.equal(id("31.0"), "30.3+");
  assert.equal(id("28.3"), null);
  assert.equal(id("thirty"), null);
  // every family's staging targets exist for every other family, so the SQL reads one shape
  const tables = (i: number) => new Set(RELEASE_FAMILIES[i].files.map((f) => f.table));
  assert.deepEqual(tables(0), tables(2));
});
