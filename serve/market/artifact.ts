/**
 * The market artifact spec: verification rules and the precomputed tables the routes answer
 * from. Everything a market route returns is read here once per version and held in memory,
 * sorted the way the routes list it, so a request only slices and serialises. The market build
 * writes what this loader reads beside the data file (`market.snapshot`); a server running the
 * same loader code loads that instead of opening the data file.
 */
import { join } from "node:path";
import type { Manifest } from "../../build/manifest.ts";
import type { ArtifactSpec } from "../stores/artifacts.ts";
import type { DataFile } from "../stores/duckdb.ts";
import {
  fingerprintOnce,
  noPause,
  type Pause,
  PIECES,
  readSnapshotFile,
  timerPause,
  writeBack,
  writeParts,
} from "../stores/snapshot.ts";
import {
  MARKET,
  MARKET_SCHEMA_VERSION,
  MARKET_TABLES,
  type MarketDetails,
} from "../../build/market/pipeline.ts";
import type { TermType } from "../../build/market/extract.ts";

/** One term's count in a scope and country. */
export interface TermCount {
  term_type: TermType;
  term_name: string;
  job_count: number;
  percentage: number;
}

/** One term's demand in the current and previous windows. */
export interface TrendingTerm {
  term_name: string;
  current_count: number;
  previous_count: number;
  growth_rate: number;
}

/** Distinct jobs of a scope and country, with the remote and hybrid ones. */
export interface ScopeTotal {
  jobs: number;
  remote_jobs: number;
  hybrid_jobs: number;
  postings: number;
}

/** What the server keeps in memory from a market version. */
export interface MarketData {
  version: string;
  details: MarketDetails;
  /** Earliest first-posted date of any job (start of the historical window). */
  earliest: string | null;
  /** `${scope}|${country}` ('' = all countries) -> totals. */
  totals: Map<string, ScopeTotal>;
  /** `${scope}|${country}|${type}` -> terms by job_count desc, then name. */
  terms: Map<string, TermCount[]>;
  /** type -> trending terms by growth_rate desc, current desc, then name. */
  trending: Map<TermType, TrendingTerm[]>;
  /** Countries of the active scope, most jobs first. */
  activeCountries: string[];
  /**
   * Whether the tables came from the build's snapshot ("snapshot") or from the data file
   * ("tables"; with a folder, then ", snapshot written back" or ", snapshot not written back:
   * <why>").
   */
  loadedFrom: string;
}

/** The loaded tables a snapshot holds (the rest comes from the manifest). */
const SNAPSHOT_PARTS = ["earliest", "totals", "terms", "trending", "activeCountries"] as const;
type SnapshotPart = typeof SNAPSHOT_PARTS[number];

/** The snapshot's file name inside a market version folder. */
export const MARKET_SNAPSHOT = "market.snapshot";

/** The fingerprint of this loader's code (serve/market/, and build/market/ it imports). */
const marketFingerprint = fingerprintOnce(`market schema ${MARKET_SCHEMA_VERSION}`, [
  new URL("./", import.meta.url),
  new URL("../../build/market/", import.meta.url),
]);

/**
 * Writes the loaded tables as the version folder's snapshot (the market build's last step, and a
 * server that had to read the data file: loadMarket).
 */
export async function writeMarketSnapshot(
  dir: string,
  data: MarketData,
  pause: Pause = noPause,
): Promise<number> {
  const print = await marketFingerprint();
  if (print === null) throw new Error("the market code cannot be read: no fingerprint");
  return await writeParts(
    join(dir, MARKET_SNAPSHOT),
    print,
    SNAPSHOT_PARTS.map((name) => [name, data[name]]),
    PIECES,
    { pause },
  );
}

const num = (v: unknown) => Number(v);
const byCountThenName = (a: TermCount, b: TermCount) =>
  b.job_count - a.job_count || (a.term_name < b.term_name ? -1 : a.term_name > b.term_name ? 1 : 0);

/**
 * Loads the market tables the routes serve: from the version folder's snapshot when this loader's
 * code wrote it, else from the data file.
 */
export async function loadMarket(
  tables: DataFile,
  manifest: Manifest,
  dir?: string,
  pause: Pause = timerPause,
): Promise<MarketData> {
  const details = manifest.market as MarketDetails | undefined;
  if (!details?.as_of) throw new Error("the market manifest has no window details");
  if (dir) {
    const read = await readSnapshotFile(join(dir, MARKET_SNAPSHOT), await marketFingerprint(), {
      pause,
    });
    const byName = read.parts ?? new Map<string, unknown>();
    if (SNAPSHOT_PARTS.every((name) => byName.has(name))) {
      const stored = Object.fromEntries(byName) as Pick<MarketData, SnapshotPart>;
      return { version: manifest.version, details, ...stored, loadedFrom: "snapshot" };
    }
  }
  const connection = await tables();
  const totals = new Map<string, ScopeTotal>();
  for (
    const [scope, country, jobs, remote, hybrid, postings] of (await connection.runAndReadAll(
      "SELECT scope, country, jobs, remote_jobs, hybrid_jobs, postings FROM market_scope_totals " +
        "ORDER BY scope, country",
    )).getRowsJS()
  ) {
    totals.set(`${scope}|${country}`, {
      jobs: num(jobs),
      remote_jobs: num(remote),
      hybrid_jobs: num(hybrid),
      postings: num(postings),
    });
  }
  const terms = new Map<string, TermCount[]>();
  for (
    const [scope, country, type, name, count, pct] of (await connection.runAndReadAll(
      "SELECT scope, country, term_type, term_name, job_count, percentage FROM market_term_counts",
    )).getRowsJS()
  ) {
    const key = `${scope}|${country}|${type}`;
    let list = terms.get(key);
    if (!list) terms.set(key, list = []);
    list.push({
      term_type: type as TermType,
      term_name: String(name),
      job_count: num(count),
      percentage: num(pct),
    });
  }
  for (const list of terms.values()) list.sort(byCountThenName);
  const trending = new Map<TermType, TrendingTerm[]>();
  for (
    const [type, name, current, previous, growth] of (await connection.runAndReadAll(
      "SELECT term_type, term_name, current_count, previous_count, growth_rate FROM market_trending",
    )).getRowsJS()
  ) {
    let list = trending.get(type as TermType);
    if (!list) trending.set(type as TermType, list = []);
    list.push({
      term_name: String(name),
      current_count: num(current),
      previous_count: num(previous),
      growth_rate: num(growth),
    });
  }
  for (const list of trending.values()) {
    list.sort((a, b) =>
      b.growth_rate - a.growth_rate || b.current_count - a.current_count ||
      (a.term_name < b.term_name ? -1 : a.term_name > b.term_name ? 1 : 0)
    );
  }
  const earliest = (await connection.runAndReadAll(
    "SELECT strftime(min(first_posted), '%Y-%m-%d') FROM market_jobs",
  )).getRowsJS()[0][0];
  const activeCountries = [...totals.entries()]
    .filter(([key]) => key.startsWith("active|") && key !== "active|")
    .sort((a, b) => b[1].jobs - a[1].jobs || (a[0] < b[0] ? -1 : 1))
    .map(([key]) => key.slice("active|".length));
  const data: MarketData = {
    version: manifest.version,
    details,
    earliest: earliest === null ? null : String(earliest),
    totals,
    terms,
    trending,
    activeCountries,
    loadedFrom: "tables",
  };
  // The next load of this version reads the snapshot instead of the data file.
  if (dir) {
    data.loadedFrom += `, snapshot ${await writeBack(() => writeMarketSnapshot(dir, data, pause))}`;
  }
  return data;
}

/** The market artifact: optional (its routes answer 503 without it), same schema version. */
export const marketSpec: ArtifactSpec<MarketData> = {
  name: MARKET,
  required: false,
  schemaVersion: MARKET_SCHEMA_VERSION,
  tables: MARKET_TABLES.map((t) => t.name),
  load: loadMarket,
  describe: (data) => ({ tables: data.loadedFrom }),
};
