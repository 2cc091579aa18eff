/**
 * The taxonomy artifact's reads behind the summary and profile bodies (answers.ts): every
 * occupation at once (`allOccupationReads`, what the build and a loader encode), the version's
 * attribution, and the same reads for one code (`occupationSkills`, `occupationDetails`), which no
 * route calls any more: tests/occupation_test.ts holds the encoded bodies to them.
 */
import type { DuckDBConnection } from "@duckdb/node-api";

const round = (value: unknown) => Math.round(Number(value) * 100) / 100;

async function rows(connection: DuckDBConnection, sql: string, code: string) {
  return (await connection.runAndReadAll(sql, [code])).getRowObjectsJS();
}

type Row = Record<string, unknown>;
/** A rated skill of an occupation. */
export type SkillRating = ReturnType<typeof skillOf>;
/** What the profile shows beside the skills. */
export type OccupationDetails = Awaited<ReturnType<typeof occupationDetails>>;

const SKILLS_ORDER = "importance DESC, level DESC NULLS LAST, element_name";
const TECHNOLOGIES_ORDER = "hot_technology DESC, in_demand DESC, example";
const TASKS_ORDER =
  "CASE task_type WHEN 'core' THEN 0 WHEN 'supplemental' THEN 1 ELSE 2 END, task_id";
const RELATED_ORDER = "r.related_index, r.related_code";

const skillOf = (r: Row) => ({
  name: String(r.element_name),
  importance: round(r.importance),
  level: r.level === null ? null : round(r.level),
});
const technologyOf = (t: Row) => ({
  name: String(t.example),
  category: t.commodity_title === null ? null : String(t.commodity_title),
  is_hot: Boolean(t.hot_technology),
  is_in_demand: Boolean(t.in_demand),
});
const relatedOf = (r: Row) => ({
  onet_code: String(r.related_code),
  title: String(r.title),
  relatedness_tier: String(r.relatedness_tier),
  rank: Number(r.related_index),
});

/**
 * The attribution text the artifact carries (its `attribution` table), or `fallback` (the
 * manifest's) when the table is empty.
 */
export async function readAttribution(
  connection: DuckDBConnection,
  fallback: string,
): Promise<string> {
  const [row] = (await connection.runAndReadAll("SELECT text FROM attribution")).getRows();
  return String(row?.[0] ?? fallback);
}

/** Skills of an occupation by importance (then name), with their level. */
export async function occupationSkills(connection: DuckDBConnection, code: string, limit = 1000) {
  const found = await connection.runAndReadAll(
    `SELECT element_name, importance, level FROM occupation_ratings
     WHERE domain = 'skill' AND onet_code = $1 AND importance IS NOT NULL
     ORDER BY ${SKILLS_ORDER}
     LIMIT $2`,
    [code, limit],
  );
  return found.getRowObjectsJS().map(skillOf);
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
     ORDER BY ${TECHNOLOGIES_ORDER}`,
    code,
  );
  const tasks = await rows(
    connection,
    `SELECT task FROM tasks WHERE onet_code = $1 ORDER BY ${TASKS_ORDER}`,
    code,
  );
  const related = await rows(
    connection,
    `SELECT r.related_code, o.title, r.relatedness_tier, r.related_index
     FROM related_occupations r JOIN occupations o ON o.onet_code = r.related_code
     WHERE r.onet_code = $1 ORDER BY ${RELATED_ORDER}`,
    code,
  );
  return {
    description: description?.description ? String(description.description) : null,
    technologies: technologies.map(technologyOf),
    tasks: tasks.map((t) => String(t.task)),
    related: related.map(relatedOf),
  };
}

/** Rows of a whole table grouped by onet_code (the query orders by it first). */
async function grouped<T>(
  connection: DuckDBConnection,
  sql: string,
  map: (row: Row) => T,
  pause: () => Promise<void>,
): Promise<Map<string, T[]>> {
  const groups = new Map<string, T[]>();
  const result = await connection.run(sql);
  // A chunk (2,048 rows) at a time, pausing between: the whole of a large table would hold
  // the event loop for over 100 ms.
  for await (const rows of result.yieldRowObjectJs()) {
    for (const row of rows) {
      const code = String(row.onet_code);
      let list = groups.get(code);
      if (!list) groups.set(code, list = []);
      list.push(map(row));
    }
    await pause();
  }
  return groups;
}
/**
 * What occupationSkills and occupationDetails give, for every occupation at once: one read per
 * table, in the same order, with `pause` awaited between reads.
 */
export async function allOccupationReads(
  connection: DuckDBConnection,
  pause: () => Promise<void>,
): Promise<Map<string, { skills: SkillRating[]; details: OccupationDetails }>> {
  const skills = await grouped(
    connection,
    `SELECT onet_code, element_name, importance, level FROM occupation_ratings
     WHERE domain = 'skill' AND importance IS NOT NULL ORDER BY onet_code, ${SKILLS_ORDER}`,
    skillOf,
    pause,
  );
  const descriptions = await grouped(
    connection,
    "SELECT onet_code, description FROM occupations",
    (r) => r.description ? String(r.description) : null,
    pause,
  );
  const technologies = await grouped(
    connection,
    `SELECT onet_code, example, commodity_title, hot_technology, in_demand FROM technologies
     ORDER BY onet_code, ${TECHNOLOGIES_ORDER}`,
    technologyOf,
    pause,
  );
  const tasks = await grouped(
    connection,
    `SELECT onet_code, task FROM tasks ORDER BY onet_code, ${TASKS_ORDER}`,
    (t) => String(t.task),
    pause,
  );
  const related = await grouped(
    connection,
    `SELECT r.onet_code, r.related_code, o.title, r.relatedness_tier, r.related_index
     FROM related_occupations r JOIN occupations o ON o.onet_code = r.related_code
     ORDER BY r.onet_code, ${RELATED_ORDER}`,
    relatedOf,
    pause,
  );
  const reads = new Map<string, { skills: SkillRating[]; details: OccupationDetails }>();
  for (const [code, [description]] of descriptions) {
    reads.set(code, {
      skills: skills.get(code) ?? [],
      details: {
        description: description ?? null,
        technologies: technologies.get(code) ?? [],
        tasks: tasks.get(code) ?? [],
        related: related.get(code) ?? [],
      },
    });
  }
  return reads;
}
