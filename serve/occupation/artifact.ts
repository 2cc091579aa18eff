/** The taxonomy artifact spec: verification rules and the data the hot path keeps in memory. */
import { join } from "node:path";
import { type Manifest, TAXONOMY_SCHEMA_VERSION } from "../../build/manifest.ts";
import { NORMALIZER_VERSION } from "../text/normalize.ts";
import type { ArtifactSpec } from "../stores/artifacts.ts";
import { TAXONOMY_TABLES } from "../../build/steps/tables.ts";
import { OccupationIndex, RANKER_VERSION } from "./engine/index.ts";
import { readIndexSource } from "./engine/load.ts";
import { readSnapshot, writeSnapshot } from "./engine/snapshot.ts";
import { LocalRanker, type Ranker, WorkerRanker } from "./ranker.ts";
import type { VersionFacts } from "./respond.ts";
import { type AnswerBook, loadAnswers } from "./answers.ts";
import { type DataFile, readDataFile } from "../stores/duckdb.ts";
import { type Pause, PIECES, timerPause, writeBack } from "../stores/snapshot.ts";

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

/**
 * Loads the taxonomy's in-memory part of a version: its facts and bodies (answers.ts) and its
 * ranking index (engine/snapshot.ts), each from the build's snapshot when this code wrote it, else
 * from the data file (`tables`, opened only then).
 */
export async function loadTaxonomy(
  tables: DataFile,
  manifest: Manifest,
  dir?: string,
  options: TaxonomyLoadOptions = { worker: false },
  pause: Pause = timerPause,
): Promise<TaxonomyData> {
  // In the ranking worker the index loads while this thread reads the answers (start-up time).
  const answers = loadAnswers(tables, manifest, dir, pause);
  answers.catch(() => {}); // awaited below, after the index (which may fail first)
  // The build's snapshot of the index when this engine wrote it; else built here, in slices that
  // yield to the event loop (the full taxonomy takes about two seconds). In the ranking worker,
  // both happen there, off this thread.
  let engine: Ranker;
  let engineFrom: string;
  if (options.worker && dir) {
    // The index source, should the worker need it: through the loader's data file while the
    // version loads; later (the worker failed, and the index has no usable snapshot to load again
    // from) from the data file opened anew, as the registry closes the loader's after the load.
    // While the version loads, the source is read after the answers are: both read through one
    // DuckDB connection, where a query ends the result another is still streaming (the index
    // was then built from part of its titles, without an error).
    let loading = true;
    const file = join(dir, manifest.file.name);
    const source = async () => {
      if (!loading) return await readDataFile(file, readIndexSource);
      await answers.catch(() => {});
      return await readIndexSource(await tables());
    };
    try {
      const ranker = await WorkerRanker.load(dir, source, answers.then((a) => a.facts));
      [engine, engineFrom] = [ranker, `${ranker.from}, in the ranking worker`];
    } finally {
      loading = false;
    }
  } else {
    await answers; // one load at a time on this thread
    const snapshot = dir
      ? await readSnapshot(dir, { pause })
      : { index: null, reason: "no folder" };
    if (snapshot.index) {
      engine = new LocalRanker(snapshot.index, (await answers).facts);
      engineFrom = "snapshot";
    } else {
      const index = await OccupationIndex.buildAsync(await readIndexSource(await tables()), {
        pause,
      });
      engine = new LocalRanker(index, (await answers).facts);
      // The next load of this version reads the index instead of building it again.
      const written = dir
        ? `, snapshot ${await writeBack(() => writeSnapshot(dir, index, PIECES, { pause }))}`
        : "";
      engineFrom = `built (${snapshot.reason})${written}`;
    }
  }
  const { occupations, facts, book, from } = await answers;
  return { ...facts, occupations, engine, engineFrom, answers: book, answersFrom: from };
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
    load: (tables, manifest, dir, pause) => loadTaxonomy(tables, manifest, dir, options, pause),
    describe: (data) => ({ engine: data.engineFrom, answers: data.answersFrom }),
    dispose: (data) => data.engine.close(),
  };
}

/** The taxonomy artifact, ranking on the thread that loaded it. */
export const taxonomySpec: ArtifactSpec<TaxonomyData> = taxonomySpecWith({ worker: false });
