/**
 * Occupation summary and profile reads from the taxonomy artifact (parameterised DuckDB
 * queries on the version the request holds a lease on).
 */
import type { DuckDBConnection } from "@duckdb/node-api";

const round = (value: unknown) => Math.round(Number(value) * 100) / 100;

async function rows(connection: DuckDBConnection, sql: string, code: string) {
  return (await connection.runAndReadAll(sql, [code])).getRowObjectsJS();
}

/** Skills of an occupation by importance (then name), with their level. */
export async function occupationSkills(connection: DuckDBConnection, code: string, limit = 1000) {
  const found = await connection.runAndReadAll(
    `SELECT element_name, importance, level FROM occupation_ratings
     WHERE domain = 'skill' AND onet_code = $1 AND importance IS NOT NULL
     ORDER BY importance DESC, level DESC NULLS LAST, element_name
     LIMIT $2`,
    [code, limit],
  );
  return found.getRowObjectsJS().map((r) => ({
    name: String(r.element_name),
    importance: round(r.importance),
    level: r.level === null ? null : round(r.level),
  }));
}

/** An occupation's description, software and tools, tasks and related occupations. */
export async function occupationDetails(connection: DuckDBConnection, code: string) {
  const [description] = await rows(
    connection,
    "SELECT description FROM occupations WHERE onet_code = $1",
    code,
  );
  const technologies = await rows(
    connection,
    `SELECT example, commodity_title, hot_technology, in_demand FROM technologies
     WHERE onet_code = $1
     ORDER BY hot_technology DESC, in_demand DESC, example`,
    code,
  );
  const tasks = await rows(
    connection,
    `SELECT task FROM tasks WHERE onet_code = $1
     ORDER BY CASE task_type WHEN 'core' THEN 0 WHEN 'supplemental' THEN 1 ELSE 2 END, task_id`,
    code,
  );
  const related = await rows(
    connection,
    `SELECT r.related_code, o.title, r.relatedness_tier, r.related_index
     FROM related_occupations r JOIN occupations o ON o.onet_code = r.related_code
     WHERE r.onet_code = $1 ORDER BY r.related_index, r.related_code`,
    code,
  );
  return {
    description: description?.description ? String(description.description) : null,
    technologies: technologies.map((t) => ({
      name: String(t.example),
      category: t.commodity_title === null ? null : String(t.commodity_title),
      is_hot: Boolean(t.hot_technology),
      is_in_demand: Boolean(t.in_demand),
    })),
    tasks: tasks.map((t) => String(t.task)),
    related: related.map((r) => ({
      onet_code: String(r.related_code),
      title: String(r.title),
      relatedness_tier: String(r.relatedness_tier),
      rank: Number(r.related_index),
    })),
  };
}
