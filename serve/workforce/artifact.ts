/**
 * The evidence artifact spec and loader. Everything the workforce routes read is loaded here
 * once per version and held in memory: the SOC catalog with its search keys, the O*NET codes,
 * skills and tasks under each SOC code, the OEWS rows published at the detailed level with
 * their figures, where each SOC code is published, and the QWI sector quarters.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { Manifest } from "../../build/manifest.ts";
import type { ArtifactSpec } from "../stores/artifacts.ts";
import type { DataFile } from "../stores/duckdb.ts";
import { join } from "node:path";
import {
  fingerprintOnce,
  interner,
  noPause,
  type Pause,
  PIECES,
  readSnapshotFile,
  timerPause,
  writeBack,
  writeParts,
} from "../stores/snapshot.ts";
import {
  EVIDENCE,
  EVIDENCE_SCHEMA_VERSION,
  EVIDENCE_TABLES,
  type EvidenceDetails,
  OEWS_MEASURES,
} from "../../build/evidence/pipeline.ts";
import { foldText } from "./search.ts";
import { fromColumns, type OewsColumns, toColumns } from "./oews_columns.ts";
import type { Figure, OewsMarker } from "./document.ts";

/** One row of the SOC structure. */
export interface SocEntry {
  soc_code: string;
  level: "major" | "minor" | "broad" | "detailed";
  title: string;
  definition: string | null;
  major_code: string;
  minor_code: string | null;
  broad_code: string | null;
  source_sha256: string;
  line: number;
}

/** An approved snapshot file and its review. */
export interface EvidenceFileInfo {
  sha256: string;
  kind: string;
  file: string;
  source: string;
  vintage: string;
  reference_period: string | null;
  reviewer: string;
  reviewed_on: string;
  caveats: string[];
  top_code: { hourly: number; annual: number } | null;
}

export type OewsMeasure = (typeof OEWS_MEASURES)[number];

/** One OEWS estimate row published at the detailed level. */
export interface OewsRow {
  sha256: string;
  line: number;
  naics: string;
  naics_title: string;
  own_code: string;
  occ_code: string;
  occ_title: string;
  o_group: string;
  annual_only: boolean;
  hourly_only: boolean;
  figures: Partial<Record<OewsMeasure, Figure>>;
}

/** Where a SOC code is published in one OEWS file. */
export interface Publication {
  occ_code: string;
  occ_title: string;
  relation: "exact" | "aggregate";
}

/** One QWI sector quarter. */
export interface QwiQuarter {
  sha256: string;
  state: string;
  industry: string;
  industry_title: string;
  year: number;
  quarter: number;
  employment_ok_counties: number | null;
  county_cells: number;
  cells_by_flag: Record<string, number>;
  first_line: number;
  last_line: number;
}

/** An OEWS file's rows: national files by occupation, sector files by occupation and sector. */
export interface OewsFile {
  info: EvidenceFileInfo;
  /** occ_code -> rows (one for national files, one per sector for sector files). */
  rows: Map<string, OewsRow[]>;
  /** soc_code -> where it is published in this file. */
  publication: Map<string, Publication>;
}

/** What the server keeps in memory from an evidence version. */
export interface WorkforceData {
  version: string;
  contentHash: string;
  details: EvidenceDetails;
  attribution: string;
  files: Map<string, EvidenceFileInfo>;
  catalog: Map<string, SocEntry>;
  /** Detailed codes in code order, with their folded search text. */
  detailed: { entry: SocEntry; codeKey: string; titleWords: string[]; onetWords: string[][] }[];
  onet: Map<string, { onet_code: string; title: string }[]>;
  skills: Map<
    string,
    {
      onet_code: string;
      element_id: string;
      name: string;
      importance: number;
      level: number | null;
    }[]
  >;
  tasks: Map<
    string,
    { onet_code: string; task_id: number; task: string; task_type: string | null }[]
  >;
  /** National OEWS files, newest reference period first. */
  national: OewsFile[];
  /** Sector OEWS files, newest first. */
  sector: OewsFile[];
  /** QWI quarters by NAICS sector code. */
  qwi: Map<string, QwiQuarter[]>;
  /**
   * Whether the tables came from the build's snapshot ("snapshot") or from DuckDB ("tables"; with
   * a folder, then ", snapshot written back" or ", snapshot not written back: why").
   */
  loadedFrom: string;
}

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * The rows of a query, a chunk at a time: the largest table (OEWS figures, about 340,000 rows)
 * is never held whole as JS arrays, which kept the heap, and so the RSS, 100 MB higher.
 */
async function* rows(connection: DuckDBConnection, sql: string): AsyncGenerator<unknown[]> {
  for await (const batch of (await connection.stream(sql)).yieldRowsJs()) {
    yield* batch as unknown[][];
  }
}

/** Loads the tables the workforce routes serve. */
export async function loadWorkforce(
  tables: DataFile,
  manifest: Manifest,
  dir?: string,
  pause: Pause = timerPause,
): Promise<WorkforceData> {
  const details = manifest.evidence as EvidenceDetails | undefined;
  if (!details?.taxonomy) throw new Error("the evidence manifest has no evidence details");
  const fromManifest = {
    version: manifest.version,
    contentHash: manifest.content_hash,
    details,
    attribution: manifest.attribution,
  };
  // The build's snapshot of these tables when this loader's code wrote it (about 1.3 s less at
  // start); else read from DuckDB below.
  if (dir) {
    const read = await readSnapshotFile(
      join(dir, EVIDENCE_SNAPSHOT),
      await evidenceFingerprint(),
      { pause },
    );
    const byName = read.parts ?? new Map<string, unknown>();
    if (STORED_PARTS.every((name) => byName.has(name))) {
      const tables = {
        files: byName.get("files"),
        catalog: byName.get("catalog"),
        onet: byName.get("onet"),
        skills: byName.get("skills"),
        tasks: byName.get("tasks"),
        national: joinOews(byName.get("nationalFiles"), byName.get("nationalRows")),
        sector: joinOews(byName.get("sectorFiles"), byName.get("sectorRows")),
        qwi: byName.get("qwi"),
      } as Pick<WorkforceData, SnapshotPart>;
      internRepeats(tables);
      return {
        ...fromManifest,
        ...tables,
        detailed: detailedOf(tables.catalog, tables.onet),
        loadedFrom: "snapshot",
      };
    }
  }
  const read = await readTables(await tables());
  // The rows as the snapshot keeps them, so a version's rows are of one kind however it loaded.
  for (const file of [...read.national, ...read.sector]) {
    file.rows = fromColumns(toColumns(file.info.sha256, [...file.rows.values()].flat()));
    await pause();
  }
  internRepeats(read);
  const data: WorkforceData = { ...read, ...fromManifest, loadedFrom: "tables" };
  // The next load of this version reads the snapshot instead of DuckDB.
  if (dir) {
    data.loadedFrom += `, snapshot ${await writeBack(() =>
      writeEvidenceSnapshot(dir, data, pause)
    )}`;
  }
  return data;
}

/**
 * Makes the strings that repeat across the skills and tasks one string each: a snapshot (or
 * DuckDB) gives every row copies of its own (O*NET codes, element ids and names, task types).
 * The OEWS rows need none of it: their columns (oews_columns.ts) hold each string once, and
 * their figures are built on first read. A few milliseconds for the shared data's.
 */
function internRepeats(tables: Pick<WorkforceData, SnapshotPart>): void {
  const one = interner();
  for (const list of tables.skills.values()) {
    for (const skill of list) {
      skill.onet_code = one(skill.onet_code);
      skill.element_id = one(skill.element_id);
      skill.name = one(skill.name);
    }
  }
  for (const list of tables.tasks.values()) {
    for (const task of list) {
      task.onet_code = one(task.onet_code);
      if (task.task_type !== null) task.task_type = one(task.task_type);
    }
  }
}

/** The loaded tables a snapshot holds (the rest comes from the manifest or is derived). */
type SnapshotPart =
  | "files"
  | "catalog"
  | "onet"
  | "skills"
  | "tasks"
  | "national"
  | "sector"
  | "qwi";

/**
 * The parts as stored: the OEWS files without their rows, and their rows as columns, one
 * oews_columns.ts table per file in the files' order (the sector file's is about 3 MB of typed
 * arrays, a copy to deserialise; as objects its rows took about 100 ms).
 */
const STORED_PARTS = [
  "files",
  "catalog",
  "onet",
  "skills",
  "tasks",
  "nationalFiles",
  "nationalRows",
  "sectorFiles",
  "sectorRows",
  "qwi",
] as const;
function splitOews(files: OewsFile[]): [OewsFile[], OewsColumns[]] {
  const columns = files.map((file) => toColumns(file.info.sha256, [...file.rows.values()].flat()));
  return [files.map((file) => ({ ...file, rows: new Map() })), columns];
}

function joinOews(files: unknown, columns: unknown): OewsFile[] {
  const joined = files as OewsFile[];
  const tables = columns as OewsColumns[];
  if (tables.length !== joined.length) throw new Error("OEWS columns of other files");
  joined.forEach((file, i) => file.rows = fromColumns(tables[i]));
  return joined;
}

/** The snapshot's file name inside an evidence version folder. */
export const EVIDENCE_SNAPSHOT = "evidence.snapshot";

/** The fingerprint of this loader's code (serve/workforce/, and build/evidence/ it imports). */
const evidenceFingerprint = fingerprintOnce(`evidence schema ${EVIDENCE_SCHEMA_VERSION}`, [
  new URL("./", import.meta.url),
  new URL("../../build/evidence/", import.meta.url),
]);

/**
 * Writes the loaded tables as the version folder's snapshot (the evidence build's last step, and a
 * server that had to read DuckDB: loadWorkforce).
 */
export async function writeEvidenceSnapshot(
  dir: string,
  data: WorkforceData,
  pause: Pause = noPause,
): Promise<number> {
  const print = await evidenceFingerprint();
  if (print === null) throw new Error("the workforce code cannot be read: no fingerprint");
  const [nationalFiles, nationalRows] = splitOews(data.national);
  const [sectorFiles, sectorRows] = splitOews(data.sector);
  const stored: Record<(typeof STORED_PARTS)[number], unknown> = {
    files: data.files,
    catalog: data.catalog,
    onet: data.onet,
    skills: data.skills,
    tasks: data.tasks,
    nationalFiles,
    nationalRows,
    sectorFiles,
    sectorRows,
    qwi: data.qwi,
  };
  return await writeParts(
    join(dir, EVIDENCE_SNAPSHOT),
    print,
    STORED_PARTS.map((name) => [name, stored[name]]),
    PIECES,
    { pause },
  );
}

/** Detailed codes in code order with their folded search text. */
function detailedOf(
  catalog: Map<string, SocEntry>,
  onet: WorkforceData["onet"],
): WorkforceData["detailed"] {
  return [...catalog.values()].filter((e) => e.level === "detailed").map((entry) => ({
    entry,
    codeKey: entry.soc_code.replace("-", ""),
    titleWords: foldText(entry.title).split(" "),
    onetWords: (onet.get(entry.soc_code) ?? []).map((o) => foldText(o.title).split(" ")),
  }));
}

/** Reads the tables from DuckDB, a chunk at a time. */
async function readTables(
  connection: DuckDBConnection,
): Promise<
  Omit<WorkforceData, "version" | "contentHash" | "details" | "attribution" | "loadedFrom">
> {
  const files = new Map<string, EvidenceFileInfo>();
  for await (
    const [sha, kind, file, source, vintage, period, reviewer, on, caveats, th, ta] of rows(
      connection,
      `SELECT sha256, kind, file, source, vintage, reference_period, reviewer, reviewed_on,
         caveats, top_code_hourly, top_code_annual FROM evidence_files ORDER BY sha256`,
    )
  ) {
    files.set(String(sha), {
      sha256: String(sha),
      kind: String(kind),
      file: String(file),
      source: String(source),
      vintage: String(vintage),
      reference_period: str(period),
      reviewer: String(reviewer),
      reviewed_on: String(on),
      caveats: JSON.parse(String(caveats)),
      top_code: th === null ? null : { hourly: Number(th), annual: Number(ta) },
    });
  }

  const catalog = new Map<string, SocEntry>();
  for await (
    const [code, level, title, definition, major, minor, broad, sha, line] of rows(
      connection,
      `SELECT soc_code, level, title, definition, major_code, minor_code, broad_code,
         source_sha256, line FROM soc_catalog ORDER BY soc_code`,
    )
  ) {
    catalog.set(String(code), {
      soc_code: String(code),
      level: String(level) as SocEntry["level"],
      title: String(title),
      definition: str(definition),
      major_code: String(major),
      minor_code: str(minor),
      broad_code: str(broad),
      source_sha256: String(sha),
      line: Number(line),
    });
  }

  const onet = new Map<string, { onet_code: string; title: string }[]>();
  for await (
    const [soc, code, title] of rows(
      connection,
      "SELECT soc_code, onet_code, onet_title FROM soc_onet ORDER BY soc_code, onet_code",
    )
  ) {
    let list = onet.get(String(soc));
    if (!list) onet.set(String(soc), list = []);
    list.push({ onet_code: String(code), title: String(title) });
  }

  const skills: WorkforceData["skills"] = new Map();
  for await (
    const [soc, code, id, name, importance, level] of rows(
      connection,
      `SELECT soc_code, onet_code, element_id, name, importance, level FROM soc_skills
       ORDER BY soc_code, rank`,
    )
  ) {
    let list = skills.get(String(soc));
    if (!list) skills.set(String(soc), list = []);
    list.push({
      onet_code: String(code),
      element_id: String(id),
      name: String(name),
      importance: Number(importance),
      level: num(level),
    });
  }
  const tasks: WorkforceData["tasks"] = new Map();
  for await (
    const [soc, code, id, task, type] of rows(
      connection,
      "SELECT soc_code, onet_code, task_id, task, task_type FROM soc_tasks ORDER BY soc_code, rank",
    )
  ) {
    let list = tasks.get(String(soc));
    if (!list) tasks.set(String(soc), list = []);
    list.push({
      onet_code: String(code),
      task_id: Number(id),
      task: String(task),
      task_type: str(type),
    });
  }

  // OEWS rows at the detailed level (the only ones a SOC code is published in) and their figures.
  const byLine = new Map<string, OewsRow>();
  const oewsFiles = new Map<string, OewsFile>();
  for (const info of files.values()) {
    if (info.kind === "oews_national" || info.kind === "oews_sector") {
      oewsFiles.set(info.sha256, { info, rows: new Map(), publication: new Map() });
    }
  }
  for await (
    const [sha, line, naics, naicsTitle, own, occ, occTitle, group, annual, hourly] of rows(
      connection,
      `SELECT sha256, line, naics, naics_title, own_code, occ_code, occ_title, o_group,
         annual_only, hourly_only FROM oews_estimates WHERE o_group = 'detailed'
       ORDER BY sha256, line`,
    )
  ) {
    const row: OewsRow = {
      sha256: String(sha),
      line: Number(line),
      naics: String(naics),
      naics_title: String(naicsTitle ?? naics),
      own_code: String(own ?? ""),
      occ_code: String(occ),
      occ_title: String(occTitle ?? occ),
      o_group: String(group),
      annual_only: Boolean(annual),
      hourly_only: Boolean(hourly),
      figures: {},
    };
    byLine.set(`${row.sha256}:${row.line}`, row);
    const file = oewsFiles.get(row.sha256);
    if (!file) continue;
    let list = file.rows.get(row.occ_code);
    if (!list) file.rows.set(row.occ_code, list = []);
    list.push(row);
  }
  for await (
    const [sha, line, measure, value, marker] of rows(
      connection,
      `SELECT f.sha256, f.line, f.measure, f.value, f.marker FROM oews_figures f
       JOIN oews_estimates e USING (sha256, line) WHERE e.o_group = 'detailed'`,
    )
  ) {
    const row = byLine.get(`${sha}:${line}`);
    if (row) {
      row.figures[String(measure) as OewsMeasure] = {
        value: num(value),
        marker: str(marker) as OewsMarker | null,
      };
    }
  }
  for await (
    const [sha, soc, occ, title, relation] of rows(
      connection,
      "SELECT sha256, soc_code, occ_code, occ_title, relation FROM oews_publication",
    )
  ) {
    oewsFiles.get(String(sha))?.publication.set(String(soc), {
      occ_code: String(occ),
      occ_title: String(title),
      relation: String(relation) as Publication["relation"],
    });
  }
  const newestFirst = (a: OewsFile, b: OewsFile) =>
    (b.info.reference_period ?? "").localeCompare(a.info.reference_period ?? "") ||
    a.info.file.localeCompare(b.info.file);
  const national = [...oewsFiles.values()].filter((f) => f.info.kind === "oews_national")
    .sort(newestFirst);
  const sector = [...oewsFiles.values()].filter((f) => f.info.kind === "oews_sector")
    .sort(newestFirst);

  const qwi = new Map<string, QwiQuarter[]>();
  for await (
    const [sha, state, industry, title, year, quarter, emp, cells, flags, first, last] of rows(
      connection,
      `SELECT sha256, state, industry, industry_title, year, quarter, employment_ok_counties,
         county_cells, cells_by_flag, first_line, last_line FROM qwi_sector_quarters
       ORDER BY industry, year, quarter, state, sha256`,
    )
  ) {
    let list = qwi.get(String(industry));
    if (!list) qwi.set(String(industry), list = []);
    list.push({
      sha256: String(sha),
      state: String(state),
      industry: String(industry),
      industry_title: String(title),
      year: Number(year),
      quarter: Number(quarter),
      employment_ok_counties: num(emp),
      county_cells: Number(cells),
      cells_by_flag: JSON.parse(String(flags)),
      first_line: Number(first),
      last_line: Number(last),
    });
  }

  return {
    files,
    catalog,
    detailed: detailedOf(catalog, onet),
    onet,
    skills,
    tasks,
    national,
    sector,
    qwi,
  };
}

/** The evidence artifact: optional (its routes answer 503 without it). */
export const evidenceSpec: ArtifactSpec<WorkforceData> = {
  name: EVIDENCE,
  required: false,
  schemaVersion: EVIDENCE_SCHEMA_VERSION,
  tables: EVIDENCE_TABLES.map((t) => t.name),
  load: loadWorkforce,
  describe: (data) => ({ tables: data.loadedFrom }),
};
