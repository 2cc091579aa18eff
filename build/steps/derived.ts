/**
 * The taxonomy tables built in TypeScript: word vectors reduced to the artifact's vocabulary and
 * the ranker's confidence calibration, fitted on titles held out of the index.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { buildTermVectors } from "./vectors.ts";
import { readIndexSource } from "../../serve/occupation/engine/load.ts";
import { type Channel, fitChannel } from "../../serve/occupation/engine/calibrate.ts";
import { fitFusion } from "../../serve/occupation/engine/fusion.ts";
import { readEmployerTitles } from "../../serve/occupation/engine/devset.ts";
import { OccupationIndex } from "../../serve/occupation/engine/index.ts";
import { writeSnapshot } from "../../serve/occupation/engine/snapshot.ts";
import {
  type AnswerFacts,
  buildAnswerBook,
  writeAnswerSnapshot,
} from "../../serve/occupation/answers.ts";
import { readTaxonomyFacts } from "../../serve/occupation/facts.ts";

/** Builds term_vectors; empty (and reported absent) when no embeddings file is given. */
export async function buildVectorsTable(
  connection: DuckDBConnection,
  embeddings: string | null,
): Promise<number> {
  if (embeddings === null) {
    await connection.run("CREATE TABLE term_vectors (term VARCHAR NOT NULL, vector FLOAT[100])");
    return 0;
  }
  const texts: string[] = [];
  for (
    const sql of [
      "SELECT title FROM occupation_titles",
      "SELECT coalesce(description, '') FROM occupations",
      "SELECT task FROM tasks",
    ]
  ) {
    for (const [text] of (await connection.runAndReadAll(sql)).getRowsJS()) {
      texts.push(String(text));
    }
  }
  return await buildTermVectors(connection, embeddings, texts);
}

/**
 * Writes the ranking index, built from the finished tables as the server would build it, into the
 * version's folder (engine/snapshot.ts): a server running this engine code loads it instead of
 * building the index. Returns the file's size in bytes.
 */
export async function writeEngineSnapshot(
  connection: DuckDBConnection,
  dir: string,
): Promise<number> {
  const index = new OccupationIndex(await readIndexSource(connection));
  return await writeSnapshot(dir, index);
}

/**
 * Writes every summary and profile body of the version, and the facts its answers carry, into its
 * folder (occupation/answers.ts): a server running this occupation code serves them from that file
 * without opening the data file. The attribution is the
 * table's, as the server reads it (`fallback.attribution` only when the table is empty).
 */
export async function writeAnswersSnapshot(
  connection: DuckDBConnection,
  dir: string,
  fallback: AnswerFacts,
): Promise<number> {
  const read = await readTaxonomyFacts(connection, fallback.release, fallback.attribution);
  const book = await buildAnswerBook(connection, read, async () => {});
  return await writeAnswerSnapshot(dir, book, read);
}

/**
 * Fits and stores the calibration of each retrieval channel the artifact supports, on the held-out
 * fold plus half of the hand-labelled employer-style titles (fixtures/occupation-dev; the quality
 * bench scores the other half).
 */
export async function buildCalibrationTable(connection: DuckDBConnection): Promise<number> {
  const source = await readIndexSource(connection);
  const employer = await readEmployerTitles();
  const channels: Channel[] = source.vectors ? ["hybrid", "lexical"] : ["lexical"];
  await connection.run(
    `CREATE TABLE ranker_calibration (channel VARCHAR, ranker_version VARCHAR, method VARCHAR,
       model VARCHAR, report VARCHAR)`,
  );
  for (const channel of channels) {
    const calibration = fitChannel(source, channel, { employer, employerHalf: 0 });
    await connection.run("INSERT INTO ranker_calibration VALUES ($1, $2, $3, $4, $5)", [
      channel,
      calibration.ranker_version,
      calibration.method,
      JSON.stringify(calibration.model),
      JSON.stringify(calibration.report),
    ]);
  }
  return channels.length;
}

/**
 * Fits and stores the learned fusion of the ranking channels (engine/fusion.ts) on the hybrid
 * channel when the artifact has vectors (lexical otherwise); both channels rank with it, and the
 * calibration that follows is fitted on the fused ranker.
 */
export async function buildFusionTable(connection: DuckDBConnection): Promise<number> {
  const source = await readIndexSource(connection);
  const employer = await readEmployerTitles();
  const fusion = fitFusion(source, source.vectors ? "hybrid" : "lexical", {
    employer,
    employerHalf: 0,
  });
  await connection.run(
    `CREATE TABLE ranker_fusion (method VARCHAR, ranker_version VARCHAR, features VARCHAR,
       weights VARCHAR, biases VARCHAR, report VARCHAR, reranker VARCHAR)`,
  );
  await connection.run("INSERT INTO ranker_fusion VALUES ($1, $2, $3, $4, $5, $6, $7)", [
    fusion.method,
    fusion.ranker_version,
    JSON.stringify(fusion.features),
    JSON.stringify(fusion.weights),
    JSON.stringify(fusion.biases ?? {}),
    JSON.stringify(fusion.report),
    fusion.reranker ? JSON.stringify(fusion.reranker) : null,
  ]);
  return 1;
}
