/** The taxonomy artifact spec: verification rules and the data the hot path keeps in memory. */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { join } from "node:path";
import { type Manifest, TAXONOMY_SCHEMA_VERSION } from "../../build/manifest.ts";
import { NORMALIZER_VERSION } from "../text/normalize.ts";
import type { ArtifactSpec } from "../stores/artifacts.ts";
import { TAXONOMY_TABLES } from "../../build/steps/tables.ts";
import { OccupationIndex, RANKER_VERSION } from "./engine/index.ts";
import { eachRow, readCalibrations, readIndexSource } from "./engine/load.ts";
import { readSnapshot } from "./engine/snapshot.ts";
import { LocalRanker, type Ranker, WorkerRanker } from "./ranker.ts";
import type { VersionFacts } from "./respond.ts";
import { type AnswerBook, loadAnswerBook } from "./answers.ts";
import { readAttribution } from "./queries.ts";

/** An occupation as the hot path sees it. */
export interface OccupationRecord {
  onetCode: string;
  title: string;
  socCode: string;
  jobZone: number | null;
  hasData: boolean;
}

/** A related occupation record (profile and analyze results). */
export interface RelatedOccupation {
  onet_code: string;
  title: string;
  relatedness_tier: string;
  rank: number;
}

/**
 * What the server keeps in memory from a taxonomy version: the facts its answers need (release,
 * attribution, related occupations, calibrations; the ranker holds them too), and more.
 */
export interface TaxonomyData extends VersionFacts {
  occupations: Map<string, OccupationRecord>;
  /**
   * The ranking index (titles, texts and, when built with them, word vectors), on this thread or
   * in the ranking worker (ranker.ts).
   */
  engine: Ranker;
  /** How the engine was made: "snapshot", or "built (<why the snapshot was not used>)". */
  engineFrom: string;
  /** Every summary and profile body of the version (answers.ts). */
  answers: AnswerBook;
  /** How they were made: "snapshot", or "encoded (<why the snapshot was not used>)". */
  answersFrom: string;
}

/** Where the ranking index runs: on the loading thread, or in the ranking worker. */
export interface TaxonomyLoadOptions {
  worker: boolean;
}

/** Loads the taxonomy's in-memory part from an opened artifact. */
export async function loadTaxonomy(
  connection: DuckDBConnection,
  manifest: Manifest,
  dir?: string,
  options: TaxonomyLoadOptions = { worker: false },
): Promise<TaxonomyData> {
  const reader = await connection.runAndReadAll(
    "SELECT onet_code, title, soc_code, job_zone, has_data FROM occupations ORDER BY onet_code",
  );
  const occupations = new Map<string, OccupationRecord>();
  for (const [onetCode, title, socCode, jobZone, hasData] of reader.getRowsJS()) {
    occupations.set(String(onetCode), {
      onetCode: String(onetCode),
      title: String(title),
      socCode: String(socCode),
      jobZone: jobZone === null ? null : Number(jobZone),
      hasData: Boolean(hasData),
    });
  }
  const attribution = await readAttribution(connection, manifest.attribution);
  const calibrations = await readCalibrations(connection);
  const related = new Map<string, RelatedOccupation[]>();
  // Chunk by chunk with a pause between: converting all of them at once held the event loop for
  // 40-70 ms during a hot swap of the full release.
  await eachRow(
    connection,
    `SELECT onet_code, related_code, relatedness_tier, related_index FROM related_occupations
     ORDER BY onet_code, related_index, related_code`,
    ([code, relatedCode, tier, index]) => {
      const title = occupations.get(String(relatedCode))?.title;
      if (!title) return;
      const list = related.get(String(code)) ?? [];
      list.push({
        onet_code: String(relatedCode),
        title,
        relatedness_tier: String(tier),
        rank: Number(index),
      });
      related.set(String(code), list);
    },
  );
  if (!calibrations.has("lexical")) throw new Error("the artifact has no lexical calibration");
  const facts: VersionFacts = {
    release: manifest.release.version,
    attribution,
    related,
    calibrations,
  };
  const answers = await loadAnswerBook(connection, facts, occupations.keys(), dir);
  // The build's snapshot of the index when this engine wrote it; else built here, in slices that
  // yield to the event loop (the full taxonomy takes about two seconds). In the ranking worker,
  // both happen there, off this thread.
  let engine: Ranker;
  let engineFrom: string;
  if (options.worker && dir) {
    // The index source, should the worker need it: read through the loader's connection while
    // the version loads; later (the worker failed, and the index has no usable snapshot to load
    // again from) from the data file opened anew, as the registry closes that connection.
    let loading = true;
    const file = join(dir, manifest.file.name);
    const source = () =>
      loading ? readIndexSource(connection) : readDataFile(file, readIndexSource);
    try {
      const ranker = await WorkerRanker.load(dir, source, facts);
      [engine, engineFrom] = [ranker, `${ranker.from}, in the ranking worker`];
    } finally {
      loading = false;
    }
  } else {
    const snapshot = dir ? await readSnapshot(dir) : { index: null, reason: "no folder" };
    const index = snapshot.index ??
      await OccupationIndex.buildAsync(await readIndexSource(connection));
    engine = new LocalRanker(index, facts);
    engineFrom = snapshot.index ? "snapshot" : `built (${snapshot.reason})`;
  }
  return {
    ...facts,
    occupations,
    engine,
    engineFrom,
    answers: answers.book,
    answersFrom: answers.from,
  };
}

/** Reads from a version's data file through a read-only instance of its own, closed after. */
async function readDataFile<T>(
  file: string,
  read: (connection: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const instance = await DuckDBInstance.create(file, { access_mode: "READ_ONLY", threads: "1" });
  try {
    const connection = await instance.connect();
    try {
      return await read(connection);
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

/**
 * The taxonomy artifact: required, same schema and normaliser as this server. With `worker`,
 * each version's ranking index loads and runs in the ranking worker (the server's default).
 */
export function taxonomySpecWith(options: TaxonomyLoadOptions): ArtifactSpec<TaxonomyData> {
  return {
    name: "taxonomy",
    required: true,
    schemaVersion: TAXONOMY_SCHEMA_VERSION,
    tables: TAXONOMY_TABLES.map((t) => t.name),
    accept: (manifest) =>
      manifest.normalizer_version !== NORMALIZER_VERSION
        ? `built with text normaliser ${manifest.normalizer_version}, this server uses ${NORMALIZER_VERSION}`
        : manifest.ranker_version !== RANKER_VERSION
        ? `calibrated for ranker ${
          manifest.ranker_version ?? "(none)"
        }, this server runs ${RANKER_VERSION}`
        : null,
    load: (connection, manifest, dir) => loadTaxonomy(connection, manifest, dir, options),
    describe: (data) => ({ engine: data.engineFrom, answers: data.answersFrom }),
    dispose: (data) => data.engine.close(),
  };
}

/** The taxonomy artifact, ranking on the thread that loaded it. */
export const taxonomySpec: ArtifactSpec<TaxonomyData> = taxonomySpecWith({ worker: false });
