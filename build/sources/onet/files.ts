/**
 * The O*NET text-release files the taxonomy build reads: exact headers, column types and
 * whether the build can go on without them. One spec drives header validation, row
 * parsing and the typed staging table, so the three cannot drift apart.
 */

/** How one column's text is validated and typed. */
export type ColumnKind =
  | "code" //  O*NET-SOC code, NN-NNNN.NN
  | "text" //  non-empty text
  | "opt_text" //  text, empty allowed (NULL)
  | "int" //  whole number
  | "num" //  decimal number
  | "opt_num" //  decimal number or empty (NULL)
  | "flag" //  Y or N, typed boolean
  | "opt_flag" //  Y, N or empty
  | "element_id" //  content-model element id such as 2.A.1.a
  | "commodity" //  8-digit UNSPSC commodity code
  | "month"; //  MM/YYYY rating date

/** One column of an O*NET file: its header text, its staging name and its kind. */
export interface ColumnSpec {
  header: string;
  name: string;
  kind: ColumnKind;
  /** Allowed values for text columns with a closed vocabulary. */
  oneOf?: readonly string[];
}

/** One O*NET file the build reads. */
export interface OnetFileSpec {
  file: string;
  /** The staging table the rows are loaded into. */
  table: string;
  required: boolean;
  columns: readonly ColumnSpec[];
}

const col = (header: string, name: string, kind: ColumnKind, oneOf?: readonly string[]) => ({
  header,
  name,
  kind,
  oneOf,
});

const code = col("O*NET-SOC Code", "onet_code", "code");
const title = col("Title", "title", "text");

/** The 15 columns shared by Skills, Knowledge, Abilities and Work Activities. */
const RATING_COLUMNS: readonly ColumnSpec[] = [
  code,
  title,
  col("Element ID", "element_id", "element_id"),
  col("Element Name", "element_name", "text"),
  col("Scale ID", "scale_id", "text", ["IM", "LV"]),
  col("Scale Name", "scale_name", "text"),
  col("Data Value", "data_value", "num"),
  col("N", "n", "opt_num"),
  col("Standard Error", "standard_error", "opt_num"),
  col("Lower CI Bound", "lower_ci", "opt_num"),
  col("Upper CI Bound", "upper_ci", "opt_num"),
  col("Recommend Suppress", "recommend_suppress", "opt_flag"),
  col("Not Relevant", "not_relevant", "opt_flag"),
  col("Date", "rating_date", "month"),
  col("Domain Source", "domain_source", "text"),
];

const rating = (file: string, table: string, required: boolean): OnetFileSpec => ({
  file,
  table,
  required,
  columns: RATING_COLUMNS,
});

/** The release note that names the O*NET version; parsed separately, never staged. */
export const READ_ME_FILE = "Read Me.txt";

/** Every tabular file the taxonomy build reads, in build order. */
export const ONET_FILES: readonly OnetFileSpec[] = [
  {
    file: "Occupation Data.txt",
    table: "stg_onet__occupations",
    required: true,
    columns: [code, title, col("Description", "description", "opt_text")],
  },
  {
    file: "Alternate Titles.txt",
    table: "stg_onet__alternate_titles",
    required: true,
    columns: [
      code,
      title,
      col("Alternate Title", "alternate_title", "text"),
      col("Short Title", "short_title", "opt_text"),
      col("Source(s)", "sources", "opt_text"),
    ],
  },
  {
    file: "Sample of Reported Titles.txt",
    table: "stg_onet__reported_titles",
    required: true,
    columns: [
      code,
      title,
      col("Reported Job Title", "reported_title", "text"),
      col("Shown in My Next Move", "shown_in_my_next_move", "flag"),
    ],
  },
  {
    file: "Task Statements.txt",
    table: "stg_onet__tasks",
    required: true,
    columns: [
      code,
      title,
      col("Task ID", "task_id", "int"),
      col("Task", "task", "text"),
      col("Task Type", "task_type", "opt_text", ["Core", "Supplemental"]),
      col("Incumbents Responding", "incumbents_responding", "opt_num"),
      col("Date", "task_date", "month"),
      col("Domain Source", "domain_source", "text"),
    ],
  },
  rating("Skills.txt", "stg_onet__skills", true),
  rating("Knowledge.txt", "stg_onet__knowledge", true),
  rating("Abilities.txt", "stg_onet__abilities", false),
  rating("Work Activities.txt", "stg_onet__work_activities", false),
  {
    file: "Technology Skills.txt",
    table: "stg_onet__technologies",
    required: true,
    columns: [
      code,
      title,
      col("Example", "example", "text"),
      col("Commodity Code", "commodity_code", "commodity"),
      col("Commodity Title", "commodity_title", "text"),
      col("Hot Technology", "hot_technology", "flag"),
      col("In Demand", "in_demand", "flag"),
    ],
  },
  {
    file: "Related Occupations.txt",
    table: "stg_onet__related_occupations",
    required: true,
    columns: [
      code,
      title,
      col("Related O*NET-SOC Code", "related_code", "code"),
      col("Related Title", "related_title", "text"),
      col("Relatedness Tier", "relatedness_tier", "text", [
        "Primary-Short",
        "Primary-Long",
        "Supplemental",
      ]),
      col("Index", "related_index", "int"),
    ],
  },
  {
    file: "Job Zones.txt",
    table: "stg_onet__job_zones",
    required: true,
    columns: [
      code,
      title,
      col("Job Zone", "job_zone", "int"),
      col("Date", "zone_date", "month"),
      col("Domain Source", "domain_source", "text"),
    ],
  },
  {
    file: "Content Model Reference.txt",
    table: "stg_onet__content_model",
    required: true,
    columns: [
      col("Element ID", "element_id", "element_id"),
      col("Element Name", "element_name", "text"),
      col("Description", "description", "opt_text"),
    ],
  },
];
