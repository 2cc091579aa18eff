/**
 * `deno task diff-releases <a> <b>`: what changed between two built taxonomy artifacts in ways
 * users notice: occupations added, removed or renamed, and the occupations whose titles,
 * skill and knowledge ratings, technologies and tasks changed the most.
 *
 * <a> and <b> are taxonomy version folders (or their taxonomy.duckdb), a version name under
 * --artifacts, or a release ("29.3": the newest built version of that release there).
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { exists } from "./publish.ts";
import { TAXONOMY } from "./pipeline.ts";
import { parseManifest } from "./manifest.ts";

const USAGE = `usage: deno task diff-releases <a> <b> [--limit N] [--artifacts DIR]
  <a>, <b>   taxonomy artifact: a version folder or its taxonomy.duckdb, a version name
             (30.1-958db338e195) or a release (30.1, the newest built version) under
             --artifacts (default: $ARTIFACTS_DIR or ./artifacts)
  --limit N  occupations listed per section (default 10)`;

type Row = Record<string, unknown>;

/** A resolved artifact: its folder and the release its manifest names. */
interface Side {
  dir: string;
  release: string;
  label: string | null;
  version: string;
}

/** Newest version folder of a release under the taxonomy folder, by modification time. */
async function newestOf(taxonomyDir: string, release: string): Promise<string | null> {
  let best: { name: string; mtime: number } | null = null;
  for await (const entry of Deno.readDir(taxonomyDir)) {
    if (!entry.isDirectory || !entry.name.startsWith(`${release}-`)) continue;
    const mtime = (await Deno.stat(join(taxonomyDir, entry.name))).mtime?.getTime() ?? 0;
    if (!best || mtime > best.mtime) best = { name: entry.name, mtime };
  }
  return best ? join(taxonomyDir, best.name) : null;
}

/** Resolves a command-line argument to an artifact folder with its manifest. */
export async function resolveSide(arg: string, artifactsDir: string): Promise<Side> {
  const taxonomyDir = join(artifactsDir, TAXONOMY);
  let dir: string | null = null;
  if (arg.endsWith(".duckdb") && await exists(arg)) dir = join(arg, "..");
  else if (await exists(join(arg, "manifest.json"))) dir = arg;
  else if (await exists(join(taxonomyDir, arg, "manifest.json"))) dir = join(taxonomyDir, arg);
  else if (/^\d+\.\d+$/.test(arg) && await exists(taxonomyDir)) {
    dir = await newestOf(taxonomyDir, arg);
  }
  if (dir === null) throw new Error(`${arg}: no taxonomy artifact there or under ${taxonomyDir}`);
  const manifest = parseManifest(await Deno.readTextFile(join(dir, "manifest.json")));
  if (manifest.artifact !== TAXONOMY) throw new Error(`${arg}: not a taxonomy artifact`);
  return {
    dir,
    release: manifest.release.version,
    label: manifest.release.label,
    version: manifest.version,
  };
}

const sqlPath = (path: string) => `'${path.replaceAll("'", "''")}'`;

/** Titles per occupation by normalised form, so case and punctuation edits do not count. */
const TITLES = (db: string) =>
  `SELECT onet_code, title_norm AS key, min(title) AS label FROM ${db}.occupation_titles
   WHERE kind <> 'primary' AND title_norm <> '' GROUP BY ALL`;

/** Technologies per occupation by example name. */
const TECHNOLOGIES = (db: string) =>
  `SELECT DISTINCT onet_code, example AS key, example AS label FROM ${db}.technologies`;

/** Tasks per occupation by task id (shown by count only: ids say nothing to a reader). */
const TASKS = (db: string) =>
  `SELECT onet_code, task_id::VARCHAR AS key, task_id::VARCHAR AS label FROM ${db}.tasks`;

/**
 * Per occupation present in both: items (onet_code, key, label) only in b (added) and only in
 * a (removed), with the labels of up to 3 added ones; the most changed first.
 */
function churn(items: (db: string) => string, limit: number): string {
  return `WITH ia AS (${items("a")}), ib AS (${items("b")}),
    added AS (
      SELECT onet_code, key FROM ib EXCEPT SELECT onet_code, key FROM ia),
    removed AS (
      SELECT onet_code, key FROM ia EXCEPT SELECT onet_code, key FROM ib),
    shared AS (SELECT onet_code FROM a.occupations INTERSECT SELECT onet_code FROM b.occupations),
    marked AS (
      SELECT '+' AS side, added.onet_code, ib.label FROM added JOIN ib USING (onet_code, key)
      UNION ALL SELECT '-', onet_code, NULL FROM removed),
    counts AS (
      SELECT onet_code,
        count(*) FILTER (WHERE side = '+') AS added,
        count(*) FILTER (WHERE side = '-') AS removed,
        list(label ORDER BY label) FILTER (WHERE side = '+')[1:3] AS examples
      FROM marked WHERE onet_code IN (SELECT onet_code FROM shared)
      GROUP BY onet_code)
    SELECT c.onet_code, o.title, c.added, c.removed, c.examples,
      (SELECT count(*) FROM counts) AS changed
    FROM counts c JOIN b.occupations o USING (onet_code)
    ORDER BY c.added + c.removed DESC, c.onet_code LIMIT ${limit}`;
}

/** The report as lines of text. */
export async function diffReleases(a: Side, b: Side, limit: number): Promise<string[]> {
  const instance = await DuckDBInstance.create(":memory:", { threads: "2" });
  const connection = await instance.connect();
  const q = async (sql: string): Promise<Row[]> =>
    (await connection.runAndReadAll(sql)).getRowObjectsJS().map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v]),
      )
    );
  try {
    await connection.run(`ATTACH ${sqlPath(join(a.dir, "taxonomy.duckdb"))} AS a (READ_ONLY)`);
    await connection.run(`ATTACH ${sqlPath(join(b.dir, "taxonomy.duckdb"))} AS b (READ_ONLY)`);
    const out: string[] = [];
    const name = (s: Side) => `O*NET ${s.release}${s.label ? ` (${s.label})` : ""}`;
    out.push(`${name(a)} -> ${name(b)}`, `  ${a.version} -> ${b.version}`);

    const [totals] = await q(`SELECT
      (SELECT count(*) FROM a.occupations) AS occ_a, (SELECT count(*) FROM b.occupations) AS occ_b,
      (SELECT count(*) FILTER (WHERE has_data) FROM a.occupations) AS data_a,
      (SELECT count(*) FILTER (WHERE has_data) FROM b.occupations) AS data_b,
      (SELECT count(*) FROM a.occupation_titles) AS titles_a,
      (SELECT count(*) FROM b.occupation_titles) AS titles_b,
      (SELECT count(*) FROM a.tasks) AS tasks_a, (SELECT count(*) FROM b.tasks) AS tasks_b,
      (SELECT count(*) FROM a.technologies) AS tech_a,
      (SELECT count(*) FROM b.technologies) AS tech_b,
      (SELECT count(DISTINCT onet_code) FROM a.occupation_ratings) AS rated_a,
      (SELECT count(DISTINCT onet_code) FROM b.occupation_ratings) AS rated_b`);
    const pair = (x: unknown, y: unknown) => {
      const d = Number(y) - Number(x);
      return `${Number(x).toLocaleString("en-US")} -> ${Number(y).toLocaleString("en-US")}` +
        (d === 0 ? "" : ` (${d > 0 ? "+" : ""}${d.toLocaleString("en-US")})`);
    };
    out.push(
      "",
      "totals",
      `  occupations ${pair(totals.occ_a, totals.occ_b)}, with data ${
        pair(totals.data_a, totals.data_b)
      }, rated ${pair(totals.rated_a, totals.rated_b)}`,
      `  titles ${pair(totals.titles_a, totals.titles_b)}, tasks ${
        pair(totals.tasks_a, totals.tasks_b)
      }, technologies ${pair(totals.tech_a, totals.tech_b)}`,
    );

    const codes = await q(`
      SELECT '+' AS side, onet_code, title FROM b.occupations
        WHERE onet_code NOT IN (SELECT onet_code FROM a.occupations)
      UNION ALL SELECT '-', onet_code, title FROM a.occupations
        WHERE onet_code NOT IN (SELECT onet_code FROM b.occupations)
      UNION ALL SELECT '~', a.onet_code, a.title || ' -> ' || b.title
        FROM a.occupations a JOIN b.occupations b USING (onet_code) WHERE a.title <> b.title
      ORDER BY side, onet_code`);
    out.push("", "occupations added (+), removed (-), renamed (~)");
    if (codes.length === 0) out.push("  none");
    for (const r of codes) out.push(`  ${r.side} ${r.onet_code} ${r.title}`);

    const section = (head: string, rows: Row[], unit: string, showExamples = true) => {
      out.push("", `${head} (${rows[0]?.changed ?? 0} occupations changed; top ${limit})`);
      for (const r of rows) {
        const examples = showExamples ? (r.examples as string[] | null) ?? [] : [];
        out.push(
          `  ${r.onet_code} ${r.title}: +${r.added} -${r.removed} ${unit}` +
            (examples.length ? `; new: ${examples.join(", ")}` : ""),
        );
      }
    };
    section(
      "titles (alternate, short and reported, by normalised form)",
      await q(churn(TITLES, limit)),
      "titles",
    );
    section("technologies", await q(churn(TECHNOLOGIES, limit)), "technologies");
    section("tasks", await q(churn(TASKS, limit)), "tasks", false);

    const moved = await q(`
      WITH r AS (
        SELECT a.onet_code, a.domain, a.element_id, a.element_name,
          a.importance AS im_a, b.importance AS im_b
        FROM a.occupation_ratings a JOIN b.occupation_ratings b
          USING (domain, onet_code, element_id)
        WHERE a.importance IS NOT NULL AND b.importance IS NOT NULL),
      per AS (
        SELECT onet_code, sum(abs(im_b - im_a)) AS total, count(*) AS elements,
          arg_max(element_name || ' ' || round(im_a, 2) || ' -> ' || round(im_b, 2),
            abs(im_b - im_a)) AS biggest
        FROM r GROUP BY onet_code)
      SELECT p.onet_code, o.title, p.total, p.elements, p.biggest,
        (SELECT count(*) FROM per WHERE total > 0) AS changed,
        (SELECT count(DISTINCT onet_code) FROM b.occupation_ratings
          WHERE onet_code NOT IN (SELECT onet_code FROM a.occupation_ratings)) AS newly_rated
      FROM per p JOIN b.occupations o USING (onet_code)
      WHERE p.total > 0
      ORDER BY p.total DESC, p.onet_code LIMIT ${limit}`);
    out.push(
      "",
      `skill and knowledge importance (${moved[0]?.changed ?? 0} occupations re-rated, ` +
        `${moved[0]?.newly_rated ?? 0} rated for the first time; top ${limit} by total change)`,
    );
    for (const r of moved) {
      out.push(
        `  ${r.onet_code} ${r.title}: total |change| ${
          Number(r.total).toFixed(2)
        } over ${r.elements} ` +
          `elements; most: ${r.biggest}`,
      );
    }

    const spread = await q(`
      WITH added AS (
        SELECT onet_code, example FROM b.technologies EXCEPT SELECT onet_code, example FROM a.technologies)
      SELECT example, count(*) AS occupations,
        example NOT IN (SELECT example FROM a.technologies) AS new_example
      FROM added GROUP BY example ORDER BY occupations DESC, example LIMIT ${limit}`);
    out.push("", `technologies added to the most occupations (* new to the release)`);
    for (const r of spread) {
      out.push(`  ${r.new_example ? "*" : " "} ${r.example}: ${r.occupations} occupations`);
    }
    return out;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      limit: { type: "string", default: "10" },
      artifacts: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const limit = Number(values.limit);
  if (values.help || positionals.length !== 2 || !Number.isInteger(limit) || limit < 1) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const artifactsDir = values.artifacts ?? Deno.env.get("ARTIFACTS_DIR") ?? "./artifacts";
  const [a, b] = await Promise.all(positionals.map((p) => resolveSide(p, artifactsDir)));
  for (const line of await diffReleases(a, b, limit)) console.log(line);
  return 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main());
  } catch (error) {
    console.error(`diff-releases: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
}
