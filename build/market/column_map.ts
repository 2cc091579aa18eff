/**
 * Column maps: how a CSV feed's columns become JobPosting fields. A map is a small JSON file
 * (build/market/maps/*.json) that names the file's exact header (how the build recognises the
 * feed) and, per field, the column to read and a parser from a closed list. Example:
 *
 * ```json
 * { "name": "linkedin_2023_24_arshkon_sample500", "format": "csv",
 *   "header": ["job_id", "company_name", "title", ...],
 *   "fields": { "identifier": "job_id", "title": "title",
 *               "datePosted": { "column": "listed_time", "parse": "epoch_ms" },
 *               "country": { "constant": "US" } } }
 * ```
 * A field spec is a column name, `{column, parse}`, `{constant}`, or `{first: [spec, ...]}`
 * (the first that yields a value). A map that names an unknown field, parser or column is
 * refused when it is loaded, so a typo fails the build instead of silently emptying a field.
 */
import type { RawDate, RawPosting } from "./feeds.ts";

/** The posting fields a map can fill. */
export const MAP_TARGETS = [
  "identifier",
  "title",
  "description",
  "datePosted",
  "validThrough",
  "employer",
  "country",
  "countryDefault",
  "region",
  "locality",
  "location",
  "remote",
  "employmentType",
  "skills",
  "occupationalCategory",
] as const;
export type MapTarget = typeof MAP_TARGETS[number];

/** Parsers a map may name; each turns one cell into a value of its field. */
export const PARSERS = [
  "text",
  "date",
  "epoch_ms",
  "epoch_s",
  "month",
  "flag",
  "remote_label",
  "python_display_name",
  "python_area",
  "hn_role",
  "hn_employer",
  "hn_header",
  "title_before_dash",
  "location_after_dash",
  "list",
] as const;
export type ParserName = typeof PARSERS[number];

/** How one field is read. */
export type FieldSpec =
  | string
  | { column: string; parse?: ParserName; separator?: string }
  | { constant: string }
  | { first: FieldSpec[] };

/** A parsed column map, with column positions resolved. */
export interface ColumnMap {
  name: string;
  file: string;
  description: string;
  delimiter: string;
  header: string[];
  fields: Partial<Record<MapTarget, FieldSpec>>;
  index: Map<string, number>;
}

function checkSpec(spec: unknown, header: Set<string>, where: string): FieldSpec {
  if (typeof spec === "string") {
    if (!header.has(spec)) throw new Error(`${where}: column "${spec}" is not in the header`);
    return spec;
  }
  if (!spec || typeof spec !== "object") throw new Error(`${where}: not a field spec`);
  const s = spec as Record<string, unknown>;
  if ("constant" in s) {
    if (typeof s.constant !== "string") throw new Error(`${where}: constant must be a string`);
    return { constant: s.constant };
  }
  if ("first" in s) {
    if (!Array.isArray(s.first) || s.first.length === 0) {
      throw new Error(`${where}: first must be a non-empty list`);
    }
    return { first: s.first.map((x, i) => checkSpec(x, header, `${where}.first[${i}]`)) };
  }
  if (typeof s.column !== "string" || !header.has(s.column)) {
    throw new Error(`${where}: column "${String(s.column)}" is not in the header`);
  }
  const parse = (s.parse ?? "text") as ParserName;
  if (!PARSERS.includes(parse)) throw new Error(`${where}: unknown parser "${String(s.parse)}"`);
  if (s.separator !== undefined && typeof s.separator !== "string") {
    throw new Error(`${where}: separator must be a string`);
  }
  return { column: s.column, parse, separator: s.separator as string | undefined };
}

/** Parses and checks a column map file; throws with the file name and the rule broken. */
export function parseColumnMap(json: string, file: string): ColumnMap {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error(`column map ${file}: not valid JSON`);
  }
  const where = `column map ${file}`;
  if (value.format !== "csv") throw new Error(`${where}: format must be "csv"`);
  if (typeof value.name !== "string" || !/^[a-z0-9_.-]+$/.test(value.name)) {
    throw new Error(`${where}: name must be lower-case letters, digits, _ . -`);
  }
  if (!Array.isArray(value.header) || value.header.some((h) => typeof h !== "string")) {
    throw new Error(`${where}: header must be the list of the file's column names`);
  }
  const header = value.header as string[];
  const columns = new Set(header);
  const fields: Partial<Record<MapTarget, FieldSpec>> = {};
  for (const [target, spec] of Object.entries((value.fields ?? {}) as Record<string, unknown>)) {
    if (!MAP_TARGETS.includes(target as MapTarget)) {
      throw new Error(`${where}: unknown field "${target}"`);
    }
    fields[target as MapTarget] = checkSpec(spec, columns, `${where}: fields.${target}`);
  }
  if (!fields.title) throw new Error(`${where}: fields.title is required`);
  return {
    name: value.name,
    file,
    description: typeof value.description === "string" ? value.description : "",
    delimiter: typeof value.delimiter === "string" ? value.delimiter : ",",
    header,
    fields,
    index: new Map(header.map((h, i) => [h, i])),
  };
}

/** Words that end a job title (used to find the role in a Hacker News post). */
const ROLE_WORD = new RegExp(
  String.raw`\b(?:engineer|developer|programmer|designer|scientist|analyst|manager|architect|` +
    String.raw`administrator|devops|sre|researcher|director|cto|specialist|consultant|technician|` +
    String.raw`writer|editor|marketer|recruiter|accountant|coordinator|representative|executive|` +
    String.raw`intern|hacker|generalist|strategist|producer|artist|product owner|scrum master|` +
    String.raw`tester|physicist|mathematician|statistician|nurse|teacher|instructor|assistant|` +
    String.raw`lead|head of [a-z]+|vp of [a-z]+)(?:e?s)?\b`,
  "gi",
);

/** Words that are not part of a role's name ("our", "talented", "hiring"). */
const FILLER = new Set(
  ("a an the our we were we're for to of and or is are be hiring hire looking seeking need needs " +
    "want wants with at in on as who you your experienced talented great smart awesome " +
    "passionate solid strong several multiple two three four new more some all many good top " +
    "help join us by from into about like amazing exceptional world-class brilliant allow " +
    "ambitious top-notch motivated driven curious senior-level other").split(" "),
);

/** The first role named in a text: up to three modifiers before a role word. */
function rolePhrase(text: string): string | null {
  ROLE_WORD.lastIndex = 0;
  for (let m = ROLE_WORD.exec(text); m !== null; m = ROLE_WORD.exec(text)) {
    const before = text.slice(Math.max(0, m.index - 80), m.index);
    const clause = before.split(/[,;:.!?()|<>\[\]"“”*•]|\s[-–—]+\s|\n/).pop() ?? "";
    const words = clause.split(/\s+/).filter((w) => w !== "");
    // "No recruiters", "not a developer role": a negated role word names no role.
    if (/^(?:no|not|non)$/i.test(words[words.length - 1] ?? "")) continue;
    const kept: string[] = [];
    for (let i = words.length - 1; i >= 0 && kept.length < 3; i--) {
      const word = words[i].toLowerCase();
      if (FILLER.has(word) || /^https?:|^\d+\+?$/.test(word)) break;
      kept.unshift(words[i]);
    }
    const phrase = [...kept, m[0]].join(" ").replace(/\s+/g, " ").trim();
    if (phrase.length <= 80) return phrase;
  }
  return null;
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, " ").replace(/&amp;/g, "&").replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#x2F;/g, "/");
}

function headerSegments(line: string): string[] {
  return stripTags(line).split(/\s[|–—-]\s|\|/).map((s) => s.trim()).filter((s) => s !== "");
}

/**
 * The role named in a Hacker News post: the first role phrase of its first line (the header,
 * usually "Company | Role | Location"), else of its first 3,000 characters ("we're looking
 * for a senior backend engineer"). Null when the post names no role.
 */
function hnRole(text: string): string | null {
  const [head, ...rest] = text.split(/<p>|\n/);
  return rolePhrase(stripTags(head)) ??
    rolePhrase(stripTags(rest.join("\n").slice(0, 3000)));
}

const PY_DISPLAY = /'display_name':\s*'((?:[^'\\]|\\.)*)'|'display_name':\s*"((?:[^"\\]|\\.)*)"/;
const PY_AREA = /'area':\s*\[([^\]]*)\]/;

/** The value of one cell under a parser. */
function parseCell(cell: string, parse: ParserName, separator?: string): unknown {
  const value = cell.trim();
  if (value === "") return null;
  switch (parse) {
    case "text":
      return value;
    case "date":
      return { value, format: "auto" } satisfies RawDate;
    case "epoch_ms":
      return { value, format: "epoch_ms" } satisfies RawDate;
    case "epoch_s":
      return { value, format: "epoch_s" } satisfies RawDate;
    case "month":
      return { value, format: "month" } satisfies RawDate;
    case "flag":
      return /^(1(\.0+)?|true|t|yes|y)$/i.test(value)
        ? true
        : /^(0(\.0+)?|false|f|no|n)$/i.test(value)
        ? false
        : null;
    case "remote_label": {
      const label = value.toLowerCase().replace(/[\s-]+/g, "_");
      if (/^(remote|fully_remote|remote_only|telecommute)$/.test(label)) return true;
      if (/^(hybrid|partially_remote)$/.test(label)) return "hybrid";
      if (/^(onsite|on_site|onsite_only|in_office|office)$/.test(label)) return false;
      return null;
    }
    case "python_display_name": {
      const m = PY_DISPLAY.exec(value);
      return m ? (m[1] ?? m[2]).replace(/\\(.)/g, "$1") : null;
    }
    case "python_area": {
      const m = PY_AREA.exec(value);
      if (!m) return null;
      return [...m[1].matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((x) =>
        (x[1] ?? x[2]).replace(/\\(.)/g, "$1")
      );
    }
    case "hn_role":
      return hnRole(value);
    case "hn_employer": {
      const first = headerSegments(value.split(/<p>|\n/)[0])[0];
      return first && first.length <= 100 && !/^https?:/i.test(first) ? first : null;
    }
    case "hn_header": {
      const head = stripTags(value.split(/<p>|\n/)[0]).trim();
      return head === "" ? null : head.slice(0, 300);
    }
    case "title_before_dash": {
      const i = value.lastIndexOf(" - ");
      return i > 0 ? value.slice(0, i).trim() : value;
    }
    case "location_after_dash": {
      const i = value.lastIndexOf(" - ");
      return i > 0 ? value.slice(i + 3).trim() || null : null;
    }
    case "list":
      return value.split(separator ?? ",").map((s) => s.trim()).filter((s) => s !== "");
  }
}

function resolve(map: ColumnMap, spec: FieldSpec, fields: string[]): unknown {
  if (typeof spec === "string") return parseCell(fields[map.index.get(spec)!] ?? "", "text");
  if ("constant" in spec) return spec.constant;
  if ("first" in spec) {
    for (const option of spec.first) {
      const value = resolve(map, option, fields);
      if (value !== null && value !== undefined) return value;
    }
    return null;
  }
  return parseCell(fields[map.index.get(spec.column)!] ?? "", spec.parse ?? "text", spec.separator);
}

const str = (v: unknown) => typeof v === "string" ? v : null;
const date = (v: unknown) => v && typeof v === "object" && "format" in v ? v as RawDate : null;

/** Turns one CSV record into a RawPosting through its map. */
export function applyMap(
  map: ColumnMap,
  fields: string[],
  feed: string,
  file: string,
  line: number,
): RawPosting {
  const get = (target: MapTarget) => {
    const spec = map.fields[target];
    return spec === undefined ? null : resolve(map, spec, fields);
  };
  const location = get("location");
  let country = str(get("country"));
  let region = str(get("region"));
  let locality = str(get("locality"));
  let locationText: string | null = null;
  if (Array.isArray(location)) {
    // A location hierarchy: country, region, (county,) locality.
    country ??= location[0] ?? null;
    region ??= location[1] ?? null;
    locality ??= location.length > 2 ? location[location.length - 1] : null;
  } else if (typeof location === "string") locationText = location;
  const remote = get("remote");
  const skills = get("skills");
  return {
    feed,
    file,
    line,
    identifier: str(get("identifier")),
    title: str(get("title")),
    description: str(get("description")) ?? "",
    datePosted: date(get("datePosted")),
    validThrough: date(get("validThrough")),
    employer: str(get("employer")),
    country,
    countryDefault: str(get("countryDefault")),
    region,
    locality,
    locationText,
    telecommute: false,
    remoteColumn: remote === true || remote === false || remote === "hybrid" ? remote : null,
    applicantCountry: null,
    employmentType: str(get("employmentType")),
    skills: Array.isArray(skills) ? skills : typeof skills === "string" ? [skills] : [],
    occupationalCategory: str(get("occupationalCategory")),
  };
}
