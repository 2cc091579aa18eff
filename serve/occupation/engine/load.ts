/** Reads what the occupation engine indexes from an opened taxonomy artifact. */
import type { DuckDBConnection } from "@duckdb/node-api";
import { timerPause } from "../../stores/snapshot.ts";
import {
  FUSION_FEATURES,
  type IndexOccupation,
  type IndexSource,
  type IndexTitle,
  RANKER_VERSION,
  type TitleKind,
  type WordVectors,
} from "./index.ts";

/**
 * Calls fn on every row, reading chunk by chunk so no whole result is materialised at once, and
 * letting timers and requests run between chunks (a server loading a new version keeps serving:
 * converting one chunk of word vectors takes about 20 ms).
 */
export async function eachRow(
  connection: DuckDBConnection,
  sql: string,
  fn: (row: unknown[]) => void,
): Promise<void> {
  const result = await connection.stream(sql);
  for await (const rows of result.yieldRowsJs()) {
    for (const row of rows) fn(row);
    await timerPause();
  }
}

/** Whether the artifact has a table (derived tables may be absent from older builds). */
export async function hasTable(connection: DuckDBConnection, name: string): Promise<boolean> {
  const rows = await (await connection.runAndReadAll(
    "SELECT count(*) FROM information_schema.tables WHERE table_name = $1",
    [name],
  )).getRowsJS();
  return Number(rows[0][0]) > 0;
}

/** Whether a table of the artifact has a column (columns added by later builds). */
export async function hasColumn(
  connection: DuckDBConnection,
  table: string,
  column: string,
): Promise<boolean> {
  const rows = await (await connection.runAndReadAll(
    "SELECT count(*) FROM information_schema.columns WHERE table_name = $1 AND column_name = $2",
    [table, column],
  )).getRowsJS();
  return Number(rows[0][0]) > 0;
}

/** Word vectors stored in the artifact, or null when it was built without them. */
export async function readVectors(connection: DuckDBConnection): Promise<WordVectors | null> {
  if (!await hasTable(connection, "term_vectors")) return null;
  const [[count, dims]] = (await connection.runAndReadAll(
    "SELECT count(*), coalesce(max(len(vector)), 0) FROM term_vectors",
  )).getRowsJS().map((r) => r.map(Number));
  if (count === 0) return null;
  const data = new Float32Array(count * dims);
  const terms: string[] = [];
  await eachRow(connection, "SELECT term, vector FROM term_vectors ORDER BY term", (row) => {
    data.set(row[1] as number[], terms.length * dims);
    terms.push(String(row[0]));
  });
  return { dims, terms, data };
}

/** Occupations (with description, tasks, skills, technologies) and titles of an artifact. */
export async function readIndexSource(
  connection: DuckDBConnection,
  options: { vectors: boolean } = { vectors: true },
): Promise<IndexSource> {
  const occupations = new Map<string, IndexOccupation>();
  await eachRow(
    connection,
    "SELECT onet_code, title, coalesce(description, '') FROM occupations ORDER BY onet_code",
    ([code, title, description]) =>
      occupations.set(String(code), {
        onetCode: String(code),
        title: String(title),
        description: String(description),
        tasks: [],
        skills: [],
        technologies: [],
      }),
  );
  await eachRow(
    connection,
    "SELECT onet_code, task FROM tasks ORDER BY onet_code, task_id",
    ([code, task]) => occupations.get(String(code))?.tasks.push(String(task)),
  );
  await eachRow(
    connection,
    `SELECT onet_code, element_name FROM occupation_ratings
     WHERE domain = 'skill' AND importance IS NOT NULL AND importance >= 2.5
     ORDER BY onet_code, importance DESC, element_name`,
    ([code, name]) => occupations.get(String(code))?.skills.push(String(name)),
  );
  await eachRow(
    connection,
    `SELECT onet_code, example FROM technologies
     GROUP BY onet_code, example
     ORDER BY onet_code, bool_or(hot_technology) DESC, bool_or(in_demand) DESC, example`,
    ([code, name]) => occupations.get(String(code))?.technologies.push(String(name)),
  );
  const titles: IndexTitle[] = [];
  await eachRow(
    connection,
    "SELECT onet_code, kind, title, coalesce(source, '') FROM occupation_titles ORDER BY title_id",
    ([code, kind, title, source]) =>
      titles.push({
        onetCode: String(code),
        kind: String(kind) as TitleKind,
        title: String(title),
        source: String(source),
      }),
  );
  const employment = new Map<string, number>();
  if (await hasTable(connection, "occupation_employment")) {
    await eachRow(
      connection,
      "SELECT onet_code, employment FROM occupation_employment ORDER BY onet_code",
      ([code, n]) => employment.set(String(code), Number(n)),
    );
  }
  let fusion: IndexSource["fusion"];
  // A fusion of ranker 130 or older has no reranker column; its version does not apply anyway.
  if (await hasColumn(connection, "ranker_fusion", "reranker")) {
    await eachRow(
      connection,
      `SELECT ranker_version, features, weights, biases, reranker FROM ranker_fusion
       ORDER BY method`,
      ([version, features, weights, biases, reranker]) => {
        // Only a fusion fitted for this ranker and its channel values applies.
        if (
          String(version) === RANKER_VERSION &&
          String(features) === JSON.stringify(FUSION_FEATURES)
        ) {
          fusion = {
            weights: JSON.parse(String(weights)),
            biases: JSON.parse(String(biases)),
            ...(reranker === null ? {} : { reranker: JSON.parse(String(reranker)) }),
          };
        }
      },
    );
  }
  return {
    occupations: [...occupations.values()],
    titles,
    employment,
    ...(fusion ? { fusion } : {}),
    vectors: options.vectors ? await readVectors(connection) : null,
  };
}
