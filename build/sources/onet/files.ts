/**
 * The O*NET text-release files the taxonomy build reads, declared per release family: which
 * files a release has, the header layouts each file may come in, and the staging table and
 * column every header maps to. One declaration drives header recognition, row parsing and the
 * typed staging tables, so the three cannot drift apart. A new release layout is a new family
 * here (files + mapping onto the same staging columns), not a new pipeline.
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

/**
 * The two header styles O*NET has shipped:
 * - `named`: name columns beside the codes (`Title`, `Scale Name`, `Related Title`), empty
 *   cells left empty. The Excel release, files converted from it, and the shared 29.3 copy.
 * - `lean`: codes only, `n/a` written in empty cells. The official text release as the
 *   shared 30.1 copy has it (the online text dictionaries show this layout for 23.x-27.x too).
 * `common` marks a file whose header is the same in both (Occupation Data, Content Model
 * Reference): it says nothing about the style of the folder.
 */
export type HeaderStyle = "named" | "lean";

/** A file's header style as read; `common` when both styles share the header. */
export type FileStyle = HeaderStyle | "common";

/** The cell texts each style means as "empty". */
export const EMPTY_MARKERS: Readonly<Record<FileStyle, readonly string[]>> = {
  named: [""],
  lean: ["", "n/a"],
  common: ["", "n/a"],
};

/** One header a file may have: the style it belongs to and its columns in file order. */
export interface FileLayout {
  style: FileStyle;
  columns: readonly ColumnSpec[];
}

/** One O*NET file the build reads. */
export interface OnetFileSpec {
  file: string;
  /** The staging table the rows are loaded into (several files may feed one table). */
  table: string;
  required: boolean;
  /** The first layout's columns (the named one where there are two). */
  columns: readonly ColumnSpec[];
  /** Every header the file may have; the first whose header matches is used. */
  layouts: readonly FileLayout[];
}

/** A release family: the versions it covers and the files its releases hold. */
export interface ReleaseFamily {
  id: string;
  /** First version of the family, inclusive, as [major, minor]. */
  from: readonly [number, number];
  /** Last version, inclusive; null when open-ended. */
  to: readonly [number, number] | null;
  /** What changed in the files, for the manifest and error messages. */
  note: string;
  files: readonly OnetFileSpec[];
}

const col = (header: string, name: string, kind: ColumnKind, oneOf?: readonly string[]) => ({
  header,
  name,
  kind,
  oneOf,
});

const code = col("O*NET-SOC Code", "onet_code", "code");
const title = col("Title", "title", "text");

/**
 * A file with a named and a lean layout. `columns` is the lean header; the named one inserts
 * each `names` entry right after the column whose staging name is its key.
 */
function twoStyles(
  file: string,
  table: string,
  required: boolean,
  columns: readonly ColumnSpec[],
  names: Readonly<Record<string, ColumnSpec>>,
): OnetFileSpec {
  const named = columns.flatMap((c) => names[c.name] ? [c, names[c.name]] : [c]);
  return {
    file,
    table,
    required,
    columns: named,
    layouts: [{ style: "named", columns: named }, { style: "lean", columns }],
  };
}

/** A file whose header is the same in both styles. */
function oneStyle(
  file: string,
  table: string,
  required: boolean,
  columns: readonly ColumnSpec[],
): OnetFileSpec {
  return { file, table, required, columns, layouts: [{ style: "common", columns }] };
}

/** Columns of Skills, Knowledge, Abilities and Work Activities (30.3: Essential, Transferable). */
const RATING_COLUMNS: readonly ColumnSpec[] = [
  code,
  col("Element ID", "element_id", "element_id"),
  col("Element Name", "element_name", "text"),
  col("Scale ID", "scale_id", "text", ["IM", "LV"]),
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

const rating = (file: string, table: string, required: boolean): OnetFileSpec =>
  twoStyles(file, table, required, RATING_COLUMNS, {
    onet_code: title,
    scale_id: col("Scale Name", "scale_name", "text"),
  });

/** The release note that names the O*NET version; parsed separately, never staged. */
export const READ_ME_FILE = "Read Me.txt";

const OCCUPATION_DATA = oneStyle("Occupation Data.txt", "stg_onet__occupations", true, [
  code,
  title,
  col("Description", "description", "opt_text"),
]);

const REPORTED_TITLES = twoStyles(
  "Sample of Reported Titles.txt",
  "stg_onet__reported_titles",
  true,
  [
    code,
    col("Reported Job Title", "reported_title", "text"),
    col("Shown in My Next Move", "shown_in_my_next_move", "flag"),
  ],
  { onet_code: title },
);

const TASKS = twoStyles("Task Statements.txt", "stg_onet__tasks", true, [
  code,
  col("Task ID", "task_id", "int"),
  col("Task", "task", "text"),
  col("Task Type", "task_type", "opt_text", ["Core", "Supplemental"]),
  col("Incumbents Responding", "incumbents_responding", "opt_num"),
  col("Date", "task_date", "month"),
  col("Domain Source", "domain_source", "text"),
], { onet_code: title });

const RELATED = twoStyles("Related Occupations.txt", "stg_onet__related_occupations", true, [
  code,
  col("Related O*NET-SOC Code", "related_code", "code"),
  col("Relatedness Tier", "relatedness_tier", "text", [
    "Primary-Short",
    "Primary-Long",
    "Supplemental",
  ]),
  col("Index", "related_index", "int"),
], { onet_code: title, related_code: col("Related Title", "related_title", "text") });

const JOB_ZONES = twoStyles("Job Zones.txt", "stg_onet__job_zones", true, [
  code,
  col("Job Zone", "job_zone", "int"),
  col("Date", "zone_date", "month"),
  col("Domain Source", "domain_source", "text"),
], { onet_code: title });

const CONTENT_MODEL = oneStyle("Content Model Reference.txt", "stg_onet__content_model", true, [
  col("Element ID", "element_id", "element_id"),
  col("Element Name", "element_name", "text"),
  col("Description", "description", "opt_text"),
]);

/** Alternate (lay) titles; 30.3 renamed the file Job Titles and the column Job Title. */
const layTitles = (file: string, titleHeader: string) =>
  twoStyles(file, "stg_onet__alternate_titles", true, [
    code,
    col(titleHeader, "alternate_title", "text"),
    col("Short Title", "short_title", "opt_text"),
    col("Source(s)", "sources", "opt_text"),
  ], { onet_code: title });

/**
 * Files of every release from 29.0 to 30.2, in build order. Technology categories are UNSPSC
 * commodities (`category_code` an 8-digit code).
 */
const FILES_TO_30_2: readonly OnetFileSpec[] = [
  OCCUPATION_DATA,
  layTitles("Alternate Titles.txt", "Alternate Title"),
  REPORTED_TITLES,
  TASKS,
  rating("Skills.txt", "stg_onet__skills", true),
  rating("Knowledge.txt", "stg_onet__knowledge", true),
  rating("Abilities.txt", "stg_onet__abilities", false),
  rating("Work Activities.txt", "stg_onet__work_activities", false),
  twoStyles("Technology Skills.txt", "stg_onet__technologies", true, [
    code,
    col("Example", "example", "text"),
    col("Commodity Code", "category_code", "commodity"),
    col("Commodity Title", "category_title", "text"),
    col("Hot Technology", "hot_technology", "flag"),
    col("In Demand", "in_demand", "flag"),
  ], { onet_code: title }),
  RELATED,
  JOB_ZONES,
  CONTENT_MODEL,
];

/**
 * Files of 30.3 and later (O*NET 30.3 data dictionary, May 2026): Alternate Titles became
 * Job Titles (`Job Title` column); Skills split into Essential Skills (2.A) and Transferable
 * Skills (2.B), both in the rating layout and staged together as skills; Technology Skills
 * became Software Skills, categorised by a content-model element (`Element ID`, `Element
 * Name`) instead of a UNSPSC commodity; UNSPSC Reference is gone (the build never read it).
 * The named layouts are the Excel release's (Title after the code), as in earlier releases.
 */
const FILES_FROM_30_3: readonly OnetFileSpec[] = [
  OCCUPATION_DATA,
  layTitles("Job Titles.txt", "Job Title"),
  REPORTED_TITLES,
  TASKS,
  rating("Essential Skills.txt", "stg_onet__skills", true),
  rating("Transferable Skills.txt", "stg_onet__skills", true),
  rating("Knowledge.txt", "stg_onet__knowledge", true),
  rating("Abilities.txt", "stg_onet__abilities", false),
  rating("Work Activities.txt", "stg_onet__work_activities", false),
  twoStyles("Software Skills.txt", "stg_onet__technologies", true, [
    code,
    col("Workplace Example", "example", "text"),
    col("Element ID", "category_code", "element_id"),
    col("Element Name", "category_title", "text"),
    col("Hot Technology", "hot_technology", "flag"),
    col("In Demand", "in_demand", "flag"),
  ], { onet_code: title }),
  RELATED,
  JOB_ZONES,
  CONTENT_MODEL,
];

/** Every release family the build reads, oldest first. */
export const RELEASE_FAMILIES: readonly ReleaseFamily[] = [
  {
    id: "29.x",
    from: [29, 0],
    to: [29, 9],
    note: "Alternate Titles, Skills and Technology Skills (UNSPSC commodities)",
    files: FILES_TO_30_2,
  },
  {
    id: "30.0-30.2",
    from: [30, 0],
    to: [30, 2],
    note: "the 29.x file set; the text release writes the lean layout with n/a in empty cells",
    files: FILES_TO_30_2,
  },
  {
    id: "30.3+",
    from: [30, 3],
    to: null,
    note: "Job Titles, Essential and Transferable Skills, Software Skills (element ids)",
    files: FILES_FROM_30_3,
  },
];

/** The 29.x file set in build order (the files of the sample release in fixtures/). */
export const ONET_FILES: readonly OnetFileSpec[] = FILES_TO_30_2;

const compare = (a: readonly [number, number], b: readonly [number, number]) =>
  a[0] - b[0] || a[1] - b[1];

/** The family that declares the files of a release version ("30.1"), or null. */
export function familyOf(version: string): ReleaseFamily | null {
  const match = version.match(/^(\d+)\.(\d+)$/);
  if (!match) return null;
  const v: [number, number] = [Number(match[1]), Number(match[2])];
  return RELEASE_FAMILIES.find((f) =>
    compare(v, f.from) >= 0 && (f.to === null || compare(v, f.to) <= 0)
  ) ?? null;
}

/** The DuckDB type of a column kind in staging. */
export function sqlType(kind: ColumnKind): string {
  switch (kind) {
    case "int":
      return "INTEGER";
    case "num":
    case "opt_num":
      return "DOUBLE";
    case "flag":
    case "opt_flag":
      return "BOOLEAN";
    default:
      return "VARCHAR";
  }
}

/** One staging table: its name and columns, the union over every family and layout. */
export interface StagingTable {
  table: string;
  columns: readonly { name: string; kind: ColumnKind }[];
}

/**
 * Every staging table with the union of the columns any layout maps onto it, in declaration
 * order. A column a file's layout lacks (Title in the lean style) is NULL in staging, so the
 * build SQL reads the same tables whichever family or style the release has.
 */
export const STAGING_TABLES: readonly StagingTable[] = (() => {
  const tables = new Map<string, Map<string, ColumnKind>>();
  for (const family of RELEASE_FAMILIES) {
    for (const spec of family.files) {
      const columns = tables.get(spec.table) ?? new Map<string, ColumnKind>();
      tables.set(spec.table, columns);
      for (const layout of spec.layouts) {
        for (const c of layout.columns) {
          const known = columns.get(c.name);
          if (known !== undefined && sqlType(known) !== sqlType(c.kind)) {
            throw new Error(`${spec.table}.${c.name} is declared with two staging types`);
          }
          if (known === undefined) columns.set(c.name, c.kind);
        }
      }
    }
  }
  return [...tables].map(([table, columns]) => ({
    table,
    columns: [...columns].map(([name, kind]) => ({ name, kind })),
  }));
})();
