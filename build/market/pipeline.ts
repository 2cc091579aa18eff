/**
 * The market build: posting feeds -> normalised, classified postings with term mentions
 * (staged as Parquet, partitioned by posting month) -> plain-SQL aggregation into the served
 * tables -> checks -> content hash -> manifest -> atomic publish. A pure function of the feeds,
 * the taxonomy version, the curated dictionary and the as-of date: no clock, no randomness.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Manifest,
  type ManifestInput,
  type ManifestTable,
  parseManifest,
} from "../manifest.ts";
import { sha256File, sha256Hex } from "../hash.ts";
import { readPointer, writeManifestAndPublish } from "../publish.ts";
import { type Progress, silentProgress } from "../progress.ts";
import { buildCheckedTables } from "../steps/sql.ts";
import type { TableSpec } from "../steps/tables.ts";
import {
  type ColumnMap,
  discoverFeeds,
  type FeedFile,
  loadShippedMaps,
  type SkippedFile,
} from "./feeds.ts";
import { parseColumnMap } from "./column_map.ts";
import {
  compileMatcher,
  EXTRACTOR_VERSION,
  readCuratedDictionary,
  type TermType,
} from "./extract.ts";
import {
  type Classifier,
  DEFAULT_STAGE_WORKERS,
  type DictionaryInputs,
  type FeedCounts,
  stageFeeds,
} from "./stage.ts";
import { DROPPING, type RecordIssue } from "./normalize.ts";
import { loadTaxonomy } from "../../serve/occupation/artifact.ts";
import { LocalRanker } from "../../serve/occupation/ranker.ts";
import { assess } from "../../serve/occupation/engine/confidence.ts";
import { retrievalPolicy } from "../../serve/occupation/engine/calibrate.ts";
import { NORMALIZER_VERSION } from "../../serve/text/normalize.ts";
import { attributionText } from "../pipeline.ts";
import { duckdb, openedFile, readDataFile } from "../../serve/stores/duckdb.ts";

/** Name of the market artifact folder and file. */
export const MARKET = "market";
/** Bumped when the layout of the market tables changes incompatibly. */
export const MARKET_SCHEMA_VERSION = 1;
/** The dedup rule, reported with every market answer. */
export const DEDUP_RULE = {
  version: "dedup-v1",
  description: "normalised title + employer (a description fingerprint when the feed names no " +
    "employer) + country/region/locality; a repost within 30 days of the previous posting of " +
    "the same key is the same job",
  window_days: 30,
};
/** Length of the active and trending windows, in days. */
export const WINDOW_DAYS = 30;
/** A term is reported as trending when current + previous distinct jobs reach this. */
export const TRENDING_MIN_JOBS = 3;
/** A feed file fails the build when more than this share of its records is dropped. */
export const DEFAULT_MAX_DROPPED_SHARE = 0.5;

const SQL_DIR = fileURLToPath(new URL("../../sql/build/market/", import.meta.url));

/** The served tables of the market artifact, in build order. */
export const MARKET_TABLES: readonly TableSpec[] = [
  {
    name: "market_terms",
    key: ["term_type", "term_id"],
    notNull: ["term_name", "source"],
    inputs: [],
  },
  {
    name: "market_jobs",
    key: ["job_id"],
    notNull: ["feed", "title", "postings", "remote", "hybrid", "active", "historical"],
    inputs: [],
  },
  { name: "market_job_terms", key: ["job_id", "term_type", "term_id"], notNull: [], inputs: [] },
  {
    name: "market_scope_totals",
    key: ["scope", "country"],
    notNull: ["jobs", "remote_jobs", "hybrid_jobs", "postings"],
    inputs: [],
  },
  {
    name: "market_term_counts",
    key: ["scope", "country", "term_type", "term_id"],
    notNull: ["term_name", "job_count", "percentage"],
    inputs: [],
  },
  {
    name: "market_trending",
    key: ["term_type", "term_id"],
    notNull: ["term_name", "current_count", "previous_count", "growth_rate"],
    inputs: [],
  },
];

/** What the market manifest adds to the common manifest. */
export interface MarketDetails {
  as_of: string;
  as_of_source: "flag" | "latest_date_posted";
  window_days: number;
  trending_min_jobs: number;
  dedup_rule: typeof DEDUP_RULE;
  extractor_version: string;
  taxonomy: { version: string; content_hash: string };
  occupation_policy: string;
  postings: { read: number; kept: number; dropped: number; mentions: number };
  feeds: FeedCounts[];
  skipped_files: SkippedFile[];
  max_dropped_share: number;
}

/** Options of a market build. */
export interface MarketBuildOptions {
  /** Feed files or folders. */
  postings: string[];
  /** YYYY-MM-DD; default: the latest datePosted of the kept postings. */
  asOf?: string;
  /** A column map file to use for every CSV input instead of matching shipped maps by header. */
  map?: string;
  maxDroppedShare?: number;
  /** Stage the version without moving `current` (the rebuild job promotes later). */
  promote?: boolean;
  /** Staging workers (default: by the machine's cores, none under 8 MiB of feeds); 0 stages
   * on this thread. */
  workers?: number;
  /** Taxonomy version to use instead of the current one (the rebuild job's staged one). */
  taxonomyVersion?: string;
}

/** What a finished market build published. */
export interface MarketBuildResult {
  version: string;
  dir: string;
  manifest: Manifest;
  reused: boolean;
}

/** A feed failed its bad-record threshold. */
export class FeedQualityError extends Error {}

async function openTaxonomy(artifactsDir: string, pinned?: string) {
  const dir = join(artifactsDir, "taxonomy");
  const version = pinned ?? await readPointer(dir);
  if (!version) {
    throw new Error(
      "no taxonomy artifact: build one first (deno task build --onet <release>); the market " +
        "build classifies postings and reads its term dictionary from it",
    );
  }
  const manifest = parseManifest(await Deno.readTextFile(join(dir, version, "manifest.json")));
  const { DuckDBInstance } = await duckdb();
  const instance = await DuckDBInstance.create(join(dir, version, manifest.file.name), {
    access_mode: "READ_ONLY",
    threads: "1",
  });
  return { manifest, instance, connection: await instance.connect() };
}

/** Builds the market artifact from posting feeds and publishes it under artifactsDir. */
export async function buildMarket(
  artifactsDir: string,
  options: MarketBuildOptions,
  progress: Progress = silentProgress,
): Promise<MarketBuildResult> {
  const total = MARKET_TABLES.length + 9;
  let n = 0;
  const maxDropped = options.maxDroppedShare ?? DEFAULT_MAX_DROPPED_SHARE;
  if (options.asOf !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.asOf)) {
    throw new Error("--as-of must be a date YYYY-MM-DD");
  }

  progress.step(++n, total, "find feeds");
  const maps = await loadShippedMaps();
  const forced: ColumnMap | null = options.map
    ? parseColumnMap(await Deno.readTextFile(options.map), options.map)
    : null;
  const files: { file: FeedFile; feed: string }[] = [];
  const skipped: SkippedFile[] = [];
  const inputs: ManifestInput[] = [];
  for (const input of options.postings) {
    const found = await discoverFeeds(input, maps, forced);
    skipped.push(...found.skipped);
    for (const file of found.files) {
      const feed = file.map?.name ?? file.name.replace(/\.(ndjson|jsonl)(\.gz)?$/, "");
      files.push({ file, feed });
      const info = await Deno.stat(file.path);
      inputs.push({
        file: file.name,
        required: true,
        status: "present",
        bytes: info.size,
        sha256: await sha256File(file.path),
      });
    }
  }
  if (files.length === 0) throw new Error("no feed file found under the --postings inputs");
  progress.done(
    `${files.length} feed files` + (skipped.length ? `, ${skipped.length} skipped` : ""),
  );

  progress.step(++n, total, "load taxonomy and dictionary");
  const taxonomy = await openTaxonomy(artifactsDir, options.taxonomyVersion);
  const curated = await readCuratedDictionary();
  let matcher;
  let dictionary: DictionaryInputs;
  let classify: Classifier;
  let policy: string;
  try {
    const technologies = (await taxonomy.connection.runAndReadAll(
      "SELECT DISTINCT example FROM technologies ORDER BY example",
    )).getRowsJS().map((r) => String(r[0]));
    const elements = (await taxonomy.connection.runAndReadAll(
      `SELECT e.element_id, e.element_name, e.domain FROM content_model_elements e
       WHERE e.depth > 2 AND NOT EXISTS (
         SELECT 1 FROM content_model_elements c WHERE c.parent_id = e.element_id)
       ORDER BY e.element_id`,
    )).getRowsJS().map((r) =>
      [String(r[0]), String(r[1]), String(r[2]) as TermType] as [
        string,
        string,
        TermType,
      ]
    );
    matcher = compileMatcher(technologies, elements, curated);
    dictionary = { technologies, elements, curated };
    const data = await loadTaxonomy(openedFile(taxonomy.connection), taxonomy.manifest);
    // Ranked on this thread, synchronously: the build classifies titles one after another.
    if (!(data.engine instanceof LocalRanker)) throw new Error("expected an in-thread ranker");
    const index = data.engine.index;
    const channel = index.hasVectors ? "hybrid" : "lexical";
    const calibration = data.calibrations.get(channel) ?? data.calibrations.get("lexical")!;
    policy = retrievalPolicy(channel, data.release);
    const cache = new Map<string, [string, number] | null>();
    classify = (title) => {
      const hit = cache.get(title);
      if (hit !== undefined) return hit;
      const ranking = index.rank({ title }, { limit: 10, semantic: channel === "hybrid" });
      const top = ranking.results[0];
      const value: [string, number] | null = top
        ? [top.onetCode, assess(ranking, calibration).confidence]
        : null;
      if (cache.size >= 200_000) cache.delete(cache.keys().next().value!);
      cache.set(title, value);
      return value;
    };
  } finally {
    taxonomy.connection.closeSync();
    taxonomy.instance.closeSync();
  }
  progress.done(`taxonomy ${taxonomy.manifest.version}, ${matcher.terms.length} terms`);

  const artifactDir = join(artifactsDir, MARKET);
  await Deno.mkdir(artifactDir, { recursive: true });
  const buildDir = await Deno.makeTempDir({ dir: artifactDir, prefix: ".build-" });
  const scratch = await Deno.makeTempDir({ prefix: "market-stage-" });
  try {
    await Deno.chmod(buildDir, 0o755);
    progress.step(++n, total, "read, normalise, extract and classify postings");
    const staged = await stageFeeds(
      files,
      matcher,
      dictionary,
      classify,
      scratch,
      // Starting workers costs about a second; small feeds stage faster on this thread.
      options.workers ??
        (inputs.reduce((a, i) => a + (i.bytes ?? 0), 0) < 8 << 20 ? 0 : DEFAULT_STAGE_WORKERS),
    );
    const read = staged.counts.reduce((a, c) => a + c.records, 0);
    const dropped = staged.counts.reduce((a, c) => a + c.dropped, 0);
    progress.done(
      `${read} records, ${staged.postings} kept, ${dropped} dropped, ` +
        `${staged.mentions} term mentions`,
    );
    for (const count of staged.counts) {
      const issues = Object.entries(count.issues).map(([k, v]) => `${k} ${v}`).join(", ");
      progress.info(
        `  ${count.file}: ${count.records} records, ${count.kept} kept` +
          (issues ? ` (${issues})` : ""),
      );
      if (count.records > 0 && count.dropped / count.records > maxDropped) {
        throw new FeedQualityError(
          `${count.file}: ${count.dropped} of ${count.records} records dropped (${
            Object.entries(count.issues).filter(([k]) => DROPPING.has(k as RecordIssue))
              .map(([k, v]) => `${k} ${v}`).join(", ")
          }), over the threshold of ${Math.round(maxDropped * 100)}%`,
        );
      }
    }
    // Every skipped file is in the manifest; the log names a few per reason.
    const byReason = new Map<string, string[]>();
    for (const file of skipped) {
      byReason.set(file.reason, [...byReason.get(file.reason) ?? [], file.name]);
    }
    for (const [reason, names] of byReason) {
      progress.info(
        `  skipped ${names.length} file(s), ${reason}: ${names.slice(0, 3).join(", ")}` +
          (names.length > 3 ? ", … (all in the manifest's market.skipped_files)" : ""),
      );
    }
    if (staged.postings === 0) throw new FeedQualityError("no posting survived normalisation");
    const asOf = options.asOf ?? staged.latestDate;
    if (!asOf) throw new Error("no posting has a date: pass --as-of YYYY-MM-DD");

    const dbPath = join(buildDir, `${MARKET}.duckdb`);
    // A bounded working set: past it DuckDB spills sorts and joins to the scratch folder, so a
    // larger feed takes longer rather than more memory (1M postings peaked at 3.5-3.9 GiB
    // without a limit).
    const { DuckDBInstance } = await duckdb();
    const instance = await DuckDBInstance.create(dbPath, {
      threads: "2",
      memory_limit: "1536MB",
      temp_directory: join(scratch, "duckdb-spill"),
      preserve_insertion_order: "false",
    });
    const connection = await instance.connect();
    const tables: ManifestTable[] = [];
    try {
      progress.step(++n, total, "stage Parquet by posting month");
      const stagingDir = join(buildDir, "staging");
      await Deno.mkdir(stagingDir, { recursive: true });
      const q = (path: string) => `'${path.replaceAll("'", "''")}'`;
      await connection.run(`CREATE TEMP TABLE stg_postings AS SELECT * FROM read_json(
        ${q(staged.postingsFile)}, format = 'newline_delimited', columns = {
          posting_id: 'BIGINT', feed: 'VARCHAR', source_file: 'VARCHAR', source_line: 'BIGINT',
          source_id: 'VARCHAR', title: 'VARCHAR', title_norm: 'VARCHAR', employer: 'VARCHAR',
          employer_norm: 'VARCHAR', date_posted: 'DATE', date_precision: 'VARCHAR',
          valid_through: 'DATE', country: 'VARCHAR', country_rule: 'VARCHAR', region: 'VARCHAR',
          locality: 'VARCHAR', remote: 'BOOLEAN', hybrid: 'BOOLEAN', remote_rule: 'VARCHAR',
          employment_type: 'VARCHAR', description_chars: 'INTEGER',
          description_fingerprint: 'VARCHAR', onet_code: 'VARCHAR',
          occupation_confidence: 'DOUBLE'})`);
      await connection.run(`COPY (
        SELECT *, coalesce(strftime(date_posted, '%Y-%m'), 'undated') AS posting_month
        FROM stg_postings ORDER BY posting_id
      ) TO ${q(join(stagingDir, "postings"))} (FORMAT parquet, PARTITION_BY (posting_month))`);
      await connection.run(`COPY (
        SELECT m.*, coalesce(strftime(p.date_posted, '%Y-%m'), 'undated') AS posting_month
        FROM read_json(${q(staged.mentionsFile)}, format = 'newline_delimited', columns = {
          posting_id: 'BIGINT', term_type: 'VARCHAR', term_id: 'VARCHAR', field: 'VARCHAR',
          span_start: 'INTEGER', span_end: 'INTEGER'}) m
        JOIN stg_postings p USING (posting_id)
        ORDER BY m.posting_id, m.span_start, m.term_type
      ) TO ${q(join(stagingDir, "mentions"))} (FORMAT parquet, PARTITION_BY (posting_month))`);
      await connection.run("DROP TABLE stg_postings");
      const glob = (name: string) => q(join(stagingDir, name, "**", "*.parquet"));
      await connection.run(
        `CREATE TEMP VIEW staged_postings AS SELECT * FROM read_parquet(${
          glob("postings")
        }, hive_partitioning = true)`,
      );
      const mentionsExist = staged.mentions > 0;
      await connection.run(
        mentionsExist
          ? `CREATE TEMP VIEW staged_mentions AS SELECT * FROM read_parquet(${
            glob("mentions")
          }, hive_partitioning = true)`
          : `CREATE TEMP VIEW staged_mentions AS SELECT NULL::BIGINT AS posting_id,
             NULL::VARCHAR AS term_type, NULL::VARCHAR AS term_id WHERE false`,
      );
      await connection.run(`CREATE TEMP TABLE staged_terms (term_type VARCHAR, term_id VARCHAR,
        term_name VARCHAR, source VARCHAR)`);
      const appender = await connection.createAppender("staged_terms", "main", "temp");
      for (const term of matcher.terms) {
        appender.appendVarchar(term.type);
        appender.appendVarchar(term.id);
        appender.appendVarchar(term.name);
        appender.appendVarchar(
          term.type === "technology"
            ? "O*NET Technology Skills example"
            : "O*NET content model element",
        );
        appender.endRow();
      }
      appender.closeSync();
      await connection.run(`CREATE TEMP TABLE market_params AS SELECT
        DATE '${asOf}' AS as_of, ${WINDOW_DAYS} AS window_days,
        ${DEDUP_RULE.window_days} AS dedup_window_days, ${TRENDING_MIN_JOBS} AS trending_min_jobs`);
      progress.done(`as of ${asOf}`);

      tables.push(
        ...await buildCheckedTables(
          connection,
          MARKET_TABLES,
          SQL_DIR,
          progress,
          (name) => progress.step(++n, total, name),
        ),
      );
      await connection.run("CHECKPOINT");
    } finally {
      connection.closeSync();
      instance.closeSync();
    }

    progress.step(++n, total, "write manifest");
    const details: MarketDetails = {
      as_of: asOf,
      as_of_source: options.asOf ? "flag" : "latest_date_posted",
      window_days: WINDOW_DAYS,
      trending_min_jobs: TRENDING_MIN_JOBS,
      dedup_rule: DEDUP_RULE,
      extractor_version: EXTRACTOR_VERSION,
      taxonomy: {
        version: taxonomy.manifest.version,
        content_hash: taxonomy.manifest.content_hash,
      },
      occupation_policy: policy,
      postings: { read, kept: staged.postings, dropped, mentions: staged.mentions },
      feeds: staged.counts,
      skipped_files: skipped,
      max_dropped_share: maxDropped,
    };
    const dictionaryHash = await sha256Hex(Object.values(curated.files).join("\n"));
    const contentHash = await sha256Hex(JSON.stringify({
      schema_version: MARKET_SCHEMA_VERSION,
      normalizer_version: NORMALIZER_VERSION,
      details: { ...details, feeds: details.feeds, dictionary: dictionaryHash },
      tables: tables.map((t) => [t.name, t.rows, t.content_hash]),
    }));
    const version = `${asOf}-${contentHash.slice(0, 12)}`;
    const fileInfo = await Deno.stat(dbPath);
    const manifest: Manifest = {
      schema_version: MARKET_SCHEMA_VERSION,
      artifact: MARKET,
      version,
      release: { source: "job posting feeds", version: asOf, label: `as of ${asOf}` },
      normalizer_version: NORMALIZER_VERSION,
      inputs: [
        ...inputs,
        ...await Promise.all(
          Object.entries(curated.files).map(async ([path, text]) => ({
            file: `build/market/dictionary/${path.split("/").pop()}`,
            required: true,
            status: "present" as const,
            bytes: new TextEncoder().encode(text).length,
            sha256: await sha256Hex(text),
          })),
        ),
      ],
      tables,
      file: { name: `${MARKET}.duckdb`, bytes: fileInfo.size, sha256: await sha256File(dbPath) },
      content_hash: contentHash,
      attribution: attributionText(taxonomy.manifest.release.version) +
        " Posting counts are scoped, directional signals from the listed feeds, not totals.",
      market: details,
    };
    progress.step(++n, total, "snapshot");
    const bytes = await writeSnapshotOf(dbPath, manifest, buildDir);
    progress.done(`${(bytes / 1e6).toFixed(1)} MB`);
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
  } finally {
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}

/**
 * The tables as the server loads them, written beside the data file (serve/market/artifact.ts: a
 * server running the same loader code reads them instead of opening the data file).
 */
async function writeSnapshotOf(dbPath: string, manifest: Manifest, dir: string): Promise<number> {
  // Imported here: the loader imports this module's table list (a static import would be a cycle).
  const { loadMarket, writeMarketSnapshot } = await import("../../serve/market/artifact.ts");
  const data = await readDataFile(dbPath, (c) => loadMarket(openedFile(c), manifest));
  return await writeMarketSnapshot(dir, data);
}
