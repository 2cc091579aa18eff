/**
 * The evidence build: reviewed SOC, OEWS and QWI snapshots plus the current taxonomy artifact ->
 * staged rows (every row keeps its file's sha256 and line) -> plain-SQL tables -> checks ->
 * content hash -> manifest -> atomic publish, as artifacts/evidence/<vintage>-<hash>/. A pure
 * function of the approved files, the review registry, the taxonomy version and the code.
 *
 * OEWS markers (`*`, `**`, `#`, `~`) stay markers: a figure is a value or a marker, never a
 * number made up for a marker. OEWS vintages are kept side by side, never differenced.
 */
import type { DuckDBAppender, DuckDBConnection } from "@duckdb/node-api";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Manifest, type ManifestTable, parseManifest } from "../manifest.ts";
import { sha256File, sha256Hex } from "../hash.ts";
import { readPointer, writeManifestAndPublish } from "../publish.ts";
import { type Progress, silentProgress } from "../progress.ts";
import { buildCheckedTables } from "../steps/sql.ts";
import type { TableSpec } from "../steps/tables.ts";
import { parseCsv, readTextChunks } from "../market/csv.ts";
import { attributionText } from "../pipeline.ts";
import { NORMALIZER_VERSION } from "../../serve/text/normalize.ts";
import { readRegistry, REVIEWS_DIR } from "./reviews.ts";
import { discoverEvidence, type EvidenceFile, type LeftOut, oewsPeriod } from "./inputs.ts";
import { duckdb, openedFile, readDataFile } from "../../serve/stores/duckdb.ts";

/** Name of the evidence artifact folder and file. */
export const EVIDENCE = "evidence";
/** Bumped when the layout of the evidence tables changes incompatibly. */
export const EVIDENCE_SCHEMA_VERSION = 1;
/** Skills and tasks kept per SOC occupation (the detail route and packs list these). */
export const SKILLS_BOUND = 10;
export const TASKS_BOUND = 10;

const SQL_DIR = fileURLToPath(new URL("../../sql/build/evidence/", import.meta.url));

/** OEWS measures kept, in file order. */
export const OEWS_MEASURES = [
  "tot_emp",
  "emp_prse",
  "pct_total",
  "pct_rpt",
  "h_mean",
  "a_mean",
  "mean_prse",
  "h_pct10",
  "h_pct25",
  "h_median",
  "h_pct75",
  "h_pct90",
  "a_pct10",
  "a_pct25",
  "a_median",
  "a_pct75",
  "a_pct90",
] as const;
const OEWS_KEYS = [
  "area",
  "area_type",
  "naics",
  "naics_title",
  "i_group",
  "own_code",
  "occ_code",
  "occ_title",
  "o_group",
  "annual",
  "hourly",
] as const;
const QWI_KEYS = [
  "year",
  "quarter",
  "industry",
  "state",
  "county",
  "agegrp",
  "sex",
  "ownercode",
  "seasonadj",
  "emp",
  "semp",
] as const;

/** The served tables of the evidence artifact, in build order. */
export const EVIDENCE_TABLES: readonly TableSpec[] = [
  {
    name: "evidence_files",
    key: ["sha256"],
    notNull: ["kind", "file", "source", "vintage", "reviewer", "reviewed_on"],
    inputs: [],
  },
  {
    name: "soc_catalog",
    key: ["soc_code"],
    notNull: ["level", "title", "major_code", "source_sha256", "line"],
    inputs: [],
  },
  { name: "soc_onet", key: ["soc_code", "onet_code"], notNull: ["onet_title"], inputs: [] },
  {
    name: "soc_skills",
    key: ["soc_code", "rank"],
    notNull: ["onet_code", "element_id", "name", "importance"],
    inputs: [],
  },
  {
    name: "soc_tasks",
    key: ["soc_code", "rank"],
    notNull: ["onet_code", "task_id", "task"],
    inputs: [],
  },
  {
    name: "oews_estimates",
    key: ["sha256", "line"],
    notNull: ["kind", "vintage", "reference_period", "naics", "occ_code", "o_group"],
    inputs: [],
  },
  { name: "oews_figures", key: ["sha256", "line", "measure"], notNull: [], inputs: [] },
  {
    name: "oews_publication",
    key: ["sha256", "soc_code"],
    notNull: ["occ_code", "occ_title", "relation"],
    inputs: [],
  },
  {
    name: "qwi_sector_quarters",
    key: ["sha256", "state", "industry", "year", "quarter"],
    notNull: ["industry_title", "county_cells", "cells_by_flag", "first_line", "last_line"],
    inputs: [],
  },
];

/** What the evidence manifest adds to the common manifest. */
export interface EvidenceDetails {
  vintage: string;
  taxonomy: { release: string; version: string; content_hash: string };
  /** Approved files read, by kind. */
  files: {
    file: string;
    kind: string;
    sha256: string;
    source: string;
    vintage: string;
    reviewer: string;
    reviewed_on: string;
  }[];
  /** Files found and left out, each with the reason (unreviewed ones among them). */
  left_out: LeftOut[];
  oews_vintages: string[];
  geographies: string[];
  bounds: { skills: number; tasks: number };
}

/** Inputs of an evidence build. */
export interface EvidenceBuildOptions {
  soc: string[];
  oews: string[];
  qwi: string[];
  /** Review registry folder (default build/reviews/). */
  reviews?: string;
  promote?: boolean;
  taxonomyVersion?: string;
}

/** What a finished evidence build published. */
export interface EvidenceBuildResult {
  version: string;
  dir: string;
  manifest: Manifest;
  reused: boolean;
}

async function stageFile(
  connection: DuckDBConnection,
  file: EvidenceFile,
  table: string,
  columns: readonly string[],
): Promise<number> {
  const appender: DuckDBAppender = await connection.createAppender(table, "main", "temp");
  let header: string[] | null = null;
  let index: number[] = [];
  let rows = 0;
  try {
    for await (const record of parseCsv(readTextChunks(file.path))) {
      if (header === null) {
        header = record.fields.map((h) => h.trim().toLowerCase().replace(/ /g, "_"));
        index = columns.map((c) => header!.indexOf(c));
        const missing = columns.filter((_c, i) => index[i] < 0);
        if (missing.length) {
          throw new Error(`${file.name}: missing column(s) ${missing.join(", ")}`);
        }
        continue;
      }
      if (record.fields.every((f) => f.trim() === "")) continue;
      appender.appendVarchar(file.sha256);
      appender.appendInteger(record.line);
      for (const i of index) {
        const value = (record.fields[i] ?? "").trim();
        if (value === "" || value.toLowerCase() === "na") appender.appendNull();
        else appender.appendVarchar(value);
      }
      appender.endRow();
      rows++;
    }
  } finally {
    appender.closeSync();
  }
  return rows;
}

async function openTaxonomy(artifactsDir: string, pinned?: string) {
  const dir = join(artifactsDir, "taxonomy");
  const version = pinned ?? await readPointer(dir);
  if (!version) {
    throw new Error(
      "no taxonomy artifact: build one first (deno task build --onet <release>); the evidence " +
        "build reads the O*NET-SOC codes, skills and tasks under each SOC code from it",
    );
  }
  const manifest = parseManifest(await Deno.readTextFile(join(dir, version, "manifest.json")));
  return { manifest, path: join(dir, version, manifest.file.name) };
}

/** Builds the evidence artifact and publishes it under artifactsDir. */
export async function buildEvidence(
  artifactsDir: string,
  options: EvidenceBuildOptions,
  progress: Progress = silentProgress,
): Promise<EvidenceBuildResult> {
  const total = EVIDENCE_TABLES.length + 7;
  let n = 0;

  progress.step(++n, total, "find and review-check inputs");
  const registry = await readRegistry(options.reviews ?? REVIEWS_DIR);
  const { files, leftOut } = await discoverEvidence(options, registry);
  for (const file of files) {
    if (file.kind.startsWith("oews") && !oewsPeriod(file.review.vintage)) {
      throw new Error(
        `${file.name}: its review gives vintage "${file.review.vintage}"; OEWS vintages are ` +
          `written "May YYYY"`,
      );
    }
  }
  const socFiles = files.filter((f) => f.kind === "soc_definitions");
  if (socFiles.length !== 1) {
    throw new Error(
      socFiles.length === 0
        ? "no approved SOC 2018 definitions file under --soc: the catalog needs one (left out: " +
          (leftOut.map((l) => `${l.file}: ${l.reason}`).join("; ") || "nothing found") + ")"
        : `${socFiles.length} approved SOC definitions files: give exactly one`,
    );
  }
  progress.done(`${files.length} approved, ${leftOut.length} left out`);
  for (const item of leftOut) progress.info(`  left out ${item.file}: ${item.reason}`);

  const taxonomy = await openTaxonomy(artifactsDir, options.taxonomyVersion);
  const artifactDir = join(artifactsDir, EVIDENCE);
  await Deno.mkdir(artifactDir, { recursive: true });
  const buildDir = await Deno.makeTempDir({ dir: artifactDir, prefix: ".build-" });
  try {
    await Deno.chmod(buildDir, 0o755);
    const dbPath = join(buildDir, `${EVIDENCE}.duckdb`);
    const { DuckDBInstance } = await duckdb();
    const instance = await DuckDBInstance.create(dbPath, { threads: "2" });
    const connection = await instance.connect();
    const tables: ManifestTable[] = [];
    try {
      progress.step(++n, total, "stage approved snapshots");
      const q = (s: string) => `'${s.replaceAll("'", "''")}'`;
      await connection.run(`ATTACH ${q(taxonomy.path)} AS tax (READ_ONLY)`);
      const varchar = (cols: readonly string[]) => cols.map((c) => `${c} VARCHAR`).join(", ");
      await connection.run(
        `CREATE TEMP TABLE stg_soc (sha256 VARCHAR, line INTEGER, ${
          varchar(["soc_group", "soc_code", "soc_title", "soc_definition"])
        })`,
      );
      await connection.run(
        `CREATE TEMP TABLE stg_oews (sha256 VARCHAR, line INTEGER, ${
          varchar([...OEWS_KEYS, ...OEWS_MEASURES])
        })`,
      );
      await connection.run(
        `CREATE TEMP TABLE stg_qwi (sha256 VARCHAR, line INTEGER, ${varchar(QWI_KEYS)})`,
      );
      await connection.run(
        `CREATE TEMP TABLE stg_labels (sha256 VARCHAR, line INTEGER, ${
          varchar(["industry", "label", "ind_level"])
        })`,
      );
      await connection.run(`CREATE TEMP TABLE stg_files (sha256 VARCHAR, kind VARCHAR,
        file VARCHAR, bytes BIGINT, source VARCHAR, vintage VARCHAR, reference_period VARCHAR,
        reviewer VARCHAR, reviewed_on VARCHAR, notes VARCHAR, caveats VARCHAR,
        top_code_hourly DOUBLE, top_code_annual DOUBLE)`);
      let staged = 0;
      const files_ = await connection.createAppender("stg_files", "main", "temp");
      for (const file of files) {
        const r = file.review;
        files_.appendVarchar(file.sha256);
        files_.appendVarchar(file.kind);
        files_.appendVarchar(file.name);
        files_.appendBigInt(BigInt(file.bytes));
        files_.appendVarchar(r.source);
        files_.appendVarchar(r.vintage);
        const period = oewsPeriod(r.vintage);
        if (period) files_.appendVarchar(period);
        else files_.appendNull();
        files_.appendVarchar(r.reviewer);
        files_.appendVarchar(r.reviewed_on);
        files_.appendVarchar(r.notes);
        files_.appendVarchar(JSON.stringify(r.caveats));
        if (r.top_code && file.kind.startsWith("oews")) {
          files_.appendDouble(r.top_code.hourly);
          files_.appendDouble(r.top_code.annual);
        } else {
          files_.appendNull();
          files_.appendNull();
        }
        files_.endRow();
      }
      files_.closeSync();
      for (const file of files) {
        staged += file.kind === "soc_definitions"
          ? await stageFile(connection, file, "stg_soc", [
            "soc_group",
            "soc_code",
            "soc_title",
            "soc_definition",
          ])
          : file.kind === "qwi_sector_employment"
          ? await stageFile(connection, file, "stg_qwi", QWI_KEYS)
          : file.kind === "qwi_industry_labels"
          ? await stageFile(connection, file, "stg_labels", ["industry", "label", "ind_level"])
          : await stageFile(connection, file, "stg_oews", [...OEWS_KEYS, ...OEWS_MEASURES]);
      }
      progress.done(`${staged} rows from ${files.length} files`);

      tables.push(
        ...await buildCheckedTables(
          connection,
          EVIDENCE_TABLES,
          SQL_DIR,
          progress,
          (name) => progress.step(++n, total, name),
        ),
      );
      await connection.run("DETACH tax");
      await connection.run("CHECKPOINT");
    } finally {
      connection.closeSync();
      instance.closeSync();
    }

    const oewsVintages = [
      ...new Set(
        files.filter((f) => f.kind === "oews_national").map((f) => oewsPeriod(f.review.vintage)!),
      ),
    ].sort().reverse();
    const details: EvidenceDetails = {
      vintage: oewsVintages[0] ? `M${oewsVintages[0].slice(0, 4)}` : "soc2018",
      taxonomy: {
        release: taxonomy.manifest.release.version,
        version: taxonomy.manifest.version,
        content_hash: taxonomy.manifest.content_hash,
      },
      files: files.map((f) => ({
        file: f.name,
        kind: f.kind,
        sha256: f.sha256,
        source: f.review.source,
        vintage: f.review.vintage,
        reviewer: f.review.reviewer,
        reviewed_on: f.review.reviewed_on,
      })).sort((a, b) => a.kind.localeCompare(b.kind) || a.file.localeCompare(b.file)),
      left_out: [...leftOut].sort((a, b) => a.file.localeCompare(b.file)),
      oews_vintages: oewsVintages,
      geographies: oewsVintages.length ? ["national"] : [],
      bounds: { skills: SKILLS_BOUND, tasks: TASKS_BOUND },
    };
    const contentHash = await sha256Hex(JSON.stringify({
      schema_version: EVIDENCE_SCHEMA_VERSION,
      normalizer_version: NORMALIZER_VERSION,
      details,
      reviews: files.map((f) => f.review).sort((a, b) => a.sha256.localeCompare(b.sha256)),
      tables: tables.map((t) => [t.name, t.rows, t.content_hash]),
    }));
    const version = `${details.vintage}-${contentHash.slice(0, 12)}`;
    const manifest: Manifest = {
      schema_version: EVIDENCE_SCHEMA_VERSION,
      artifact: EVIDENCE,
      version,
      release: {
        source: "reviewed SOC, OEWS and QWI snapshots",
        version: details.vintage,
        label: oewsVintages.length
          ? `OEWS ${oewsVintages.map((p) => `May ${p.slice(0, 4)}`).join(", ")}`
          : "SOC 2018 only",
      },
      normalizer_version: NORMALIZER_VERSION,
      inputs: files.map((f) => ({
        file: f.name,
        required: f.kind === "soc_definitions",
        status: "present" as const,
        bytes: f.bytes,
        sha256: f.sha256,
      })),
      tables,
      file: {
        name: `${EVIDENCE}.duckdb`,
        bytes: (await Deno.stat(dbPath)).size,
        sha256: await sha256File(dbPath),
      },
      content_hash: contentHash,
      attribution: evidenceAttribution(taxonomy.manifest.release.version, files),
      evidence: details,
    };
    progress.step(++n, total, "snapshot");
    const bytes = await writeSnapshotOf(dbPath, manifest, buildDir);
    progress.done(`${(bytes / 1e6).toFixed(1)} MB`);
    progress.step(++n, total, "write manifest");
    return await writeManifestAndPublish(
      artifactDir,
      buildDir,
      manifest,
      options.promote ?? true,
      progress,
      (name) => progress.step(++n, total, name),
    );
  } catch (error) {
    await Deno.remove(buildDir, { recursive: true }).catch(() => {});
    throw error;
  }
}

/**
 * The tables as the server loads them, written beside the data file (serve/workforce/artifact.ts:
 * a server running the same loader code reads them instead of the tables, about 1.3 s less at
 * start).
 */
async function writeSnapshotOf(dbPath: string, manifest: Manifest, dir: string): Promise<number> {
  // Imported here: the loader imports this module's table list (a static import would be a cycle).
  const { loadWorkforce, writeEvidenceSnapshot } = await import(
    "../../serve/workforce/artifact.ts"
  );
  const data = await readDataFile(dbPath, (c) => loadWorkforce(openedFile(c), manifest));
  return await writeEvidenceSnapshot(dir, data);
}

/** The credits of the sources an evidence version was built from. */
export function evidenceAttribution(onetRelease: string, files: EvidenceFile[]): string {
  const parts = [
    "SOC structure and definitions: U.S. Bureau of Labor Statistics, Standard Occupational " +
    "Classification 2018 (public domain).",
  ];
  if (files.some((f) => f.kind.startsWith("oews"))) {
    parts.push(
      "Employment and wages: U.S. Bureau of Labor Statistics, Occupational Employment and Wage " +
        "Statistics (public domain).",
    );
  }
  if (files.some((f) => f.kind.startsWith("qwi"))) {
    parts.push(
      "Industry dynamics: U.S. Census Bureau, LEHD Quarterly Workforce Indicators (public domain).",
    );
  }
  parts.push(attributionText(onetRelease));
  return parts.join(" ");
}
