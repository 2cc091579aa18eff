/** Reads what the occupation engine indexes from an opened taxonomy artifact. */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { IndexOccupation, IndexSource, IndexTitle, TitleKind, WordVectors } from "./index.ts";

async function rowsOf(connection: DuckDBConnection, sql: string) {
  return (await connection.runAndReadAll(sql)).getRowsJS();
}

/** Whether the artifact has a table (derived tables may be absent from older builds). */
export async function hasTable(connection: DuckDBConnection, name: string): Promise<boolean> {
  const rows = await (await connection.runAndReadAll(
    "SELECT count(*) FROM information_schema.tables WHERE table_name = $1",
    [name],
  )).getRowsJS();
  return Number(rows[0][0]) > 0;
}

/** Word vectors stored in the artifact, or null when it was built without them. */
export async function readVectors(connection: DuckDBConnection): Promise<WordVectors | null> {
  if (!await hasTable(connection, "term_vectors")) return null;
  const rows = await rowsOf(connection, "SELECT term, vector FROM term_vectors ORDER BY term");
  if (rows.length === 0) return null;
  const dims = (rows[0][1] as number[]).length;
  const data = new Float32Array(rows.length * dims);
  const terms: string[] = [];
  rows.forEach(([term, vector], i) => {
    terms.push(String(term));
    data.set(vector as number[], i * dims);
  });
  return { dims, terms, data };
}

/** Occupations (with description, tasks, skills, technologies) and titles of an artifact. */
export async function readIndexSource(
  connection: DuckDBConnection,
  options: { vectors: boolean } = { vectors: true },
): Promise<IndexSource> {
  const occupations = new Map<string, IndexOccupation>();
  for (
    const [code, title, description] of await rowsOf(
      connection,
      "SELECT onet_code, title, coalesce(description, '') FROM occupations ORDER BY onet_code",
    )
  ) {
    occupations.set(String(code), {
      onetCode: String(code),
      title: String(title),
      description: String(description),
      tasks: [],
      skills: [],
      technologies: [],
    });
  }
  for (
    const [code, task] of await rowsOf(
      connection,
      "SELECT onet_code, task FROM tasks ORDER BY onet_code, task_id",
    )
  ) occupations.get(String(code))?.tasks.push(String(task));
  for (
    const [code, name] of await rowsOf(
      connection,
      `SELECT onet_code, element_name FROM occupation_ratings
     WHERE domain = 'skill' AND importance IS NOT NULL AND importance >= 2.5
     ORDER BY onet_code, importance DESC, element_name`,
    )
  ) occupations.get(String(code))?.skills.push(String(name));
  for (
    const [code, name] of await rowsOf(
      connection,
      `SELECT onet_code, example FROM technologies
     GROUP BY onet_code, example
     ORDER BY onet_code, bool_or(hot_technology) DESC, bool_or(in_demand) DESC, example`,
    )
  ) occupations.get(String(code))?.technologies.push(String(name));
  const titles: IndexTitle[] = (await rowsOf(
    connection,
    "SELECT onet_code, kind, title FROM occupation_titles ORDER BY title_id",
  )).map(([code, kind, title]) => ({
    onetCode: String(code),
    kind: String(kind) as TitleKind,
    title: String(title),
  }));
  return {
    occupations: [...occupations.values()],
    titles,
    vectors: options.vectors ? await readVectors(connection) : null,
  };
}
