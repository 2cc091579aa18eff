/**
 * Posting feeds in: finds the feed files under each `--postings` path and turns every record
 * into a RawPosting. Two formats:
 * - NDJSON of schema.org JobPosting (`.ndjson`, `.jsonl`, optionally `.gz`): the canonical feed;
 * - CSV (`.csv`, `.csv.gz`) read through a declared column map (build/market/maps/*.json), found
 *   by the file's exact header, or named with `--map`.
 * A file no map matches is listed as skipped in the manifest (never read silently as something
 * else); a malformed NDJSON line is a bad record with reason `malformed_record`.
 */
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseCsv, readLines, readTextChunks } from "./csv.ts";
import { applyMap, type ColumnMap, type FieldSpec, parseColumnMap } from "./column_map.ts";

/** A date as the feed wrote it, with how to read it. */
export interface RawDate {
  value: string;
  format: "auto" | "epoch_ms" | "epoch_s" | "month";
}

/** One record of a feed before normalisation: strings as written, nothing inferred yet. */
export interface RawPosting {
  feed: string;
  file: string;
  line: number;
  identifier: string | null;
  title: string | null;
  /** Plain text or HTML (tags are stripped either way). */
  description: string;
  datePosted: RawDate | null;
  validThrough: RawDate | null;
  employer: string | null;
  country: string | null;
  /** A country to assume when nothing in the record resolves one (declared by a column map). */
  countryDefault: string | null;
  region: string | null;
  locality: string | null;
  /** Free-text location ("Austin, TX", "Remote (US)") when no structured address exists. */
  locationText: string | null;
  telecommute: boolean;
  /** An explicit remote column: true, false, or "hybrid"; null when the feed has none. */
  remoteColumn: boolean | "hybrid" | null;
  applicantCountry: string | null;
  employmentType: string | null;
  skills: string[];
  occupationalCategory: string | null;
}

/** A feed file found under an input path. */
export interface FeedFile {
  path: string;
  /** Name recorded in the manifest: the path relative to the input it was found under. */
  name: string;
  kind: "ndjson" | "csv";
  map: ColumnMap | null;
}

/** A file under an input that was not read, and why. */
export interface SkippedFile {
  name: string;
  reason: string;
}

/** A record that could not even be read as a record. */
export interface UnreadableRecord {
  feed: string;
  file: string;
  line: number;
  reason: "malformed_record";
}

const MAPS_DIR = fileURLToPath(new URL("./maps/", import.meta.url));

/** Loads every column map shipped in build/market/maps/. */
export async function loadShippedMaps(): Promise<ColumnMap[]> {
  const maps: ColumnMap[] = [];
  const names: string[] = [];
  for await (const entry of Deno.readDir(MAPS_DIR)) {
    if (entry.isFile && entry.name.endsWith(".json")) names.push(entry.name);
  }
  for (const name of names.sort()) {
    maps.push(parseColumnMap(await Deno.readTextFile(join(MAPS_DIR, name)), name));
  }
  return maps;
}

const NDJSON = /\.(ndjson|jsonl)(\.gz)?$/;
const CSV = /\.csv(\.gz)?$/;

async function firstCsvHeader(path: string): Promise<string[] | null> {
  for await (const record of parseCsv(readTextChunks(path))) return record.fields;
  return null;
}

/** Finds the feed files of one input path (a file or a folder, searched recursively). */
export async function discoverFeeds(
  input: string,
  maps: ColumnMap[],
  forcedMap: ColumnMap | null = null,
): Promise<{ files: FeedFile[]; skipped: SkippedFile[] }> {
  const info = await Deno.stat(input);
  const paths: string[] = [];
  if (info.isFile) paths.push(input);
  else {
    const walk = async (dir: string) => {
      const entries: Deno.DirEntry[] = [];
      for await (const entry of Deno.readDir(dir)) entries.push(entry);
      entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
      for (const entry of entries) {
        if (entry.name.startsWith(".")) continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory) await walk(path);
        else if (entry.isFile) paths.push(path);
      }
    };
    await walk(input);
  }
  const base = info.isFile ? basename(input) : basename(input.replace(/\/+$/, ""));
  const files: FeedFile[] = [];
  const skipped: SkippedFile[] = [];
  for (const path of paths) {
    const name = info.isFile ? base : join(base, relative(input, path));
    if (NDJSON.test(path)) {
      files.push({ path, name, kind: "ndjson", map: null });
    } else if (CSV.test(path)) {
      const header = await firstCsvHeader(path);
      const map = forcedMap ??
        maps.find((m) =>
          header !== null && m.header.length === header.length &&
          m.header.every((column, i) => column === header[i].trim())
        );
      if (map) files.push({ path, name, kind: "csv", map });
      else skipped.push({ name, reason: "CSV header matches no column map" });
    } else {
      skipped.push({ name, reason: "not a feed file (.ndjson, .jsonl or .csv, optionally .gz)" });
    }
  }
  return { files, skipped };
}

/**
 * A field's text, trimmed; null when empty. A JSON escape can carry a lone UTF-16 surrogate
 * ("\udfff"), which no UTF-8 store accepts: it becomes U+FFFD, so one odd record neither fails
 * the build nor is lost. (CSV text is decoded from UTF-8, where invalid bytes already become
 * U+FFFD.)
 */
function text(value: unknown): string | null {
  if (typeof value === "string") {
    const trimmed = value.trim();
    return trimmed === "" ? null : trimmed.toWellFormed();
  }
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** The first element of a value that may be one thing or a list of things. */
function one(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function obj(value: unknown): Record<string, unknown> {
  const first = one(value);
  return first && typeof first === "object" ? first as Record<string, unknown> : {};
}

/** A schema.org JobPosting object as a RawPosting (absent fields become null). */
export function fromJobPosting(
  value: Record<string, unknown>,
  feed: string,
  file: string,
  line: number,
): RawPosting {
  const place = obj(value.jobLocation);
  const address = place.address;
  const addr = typeof address === "string" ? {} : obj(address);
  const country = addr.addressCountry;
  const applicant = one(value.applicantLocationRequirements);
  const skills = value.skills;
  const identifier = one(value.identifier);
  const category = one(value.occupationalCategory);
  const date = text(value.datePosted);
  const valid = text(value.validThrough);
  return {
    feed,
    file,
    line,
    identifier: text(identifier) ?? text(obj(identifier).value),
    title: text(value.title),
    description: text(value.description) ?? "",
    datePosted: date === null ? null : { value: date, format: "auto" },
    validThrough: valid === null ? null : { value: valid, format: "auto" },
    employer: text(value.hiringOrganization) ?? text(obj(value.hiringOrganization).name),
    country: text(country) ?? text(obj(country).name),
    countryDefault: null,
    region: text(addr.addressRegion),
    locality: text(addr.addressLocality),
    locationText: typeof address === "string" ? text(address) : null,
    telecommute: [value.jobLocationType].flat().some((t) =>
      typeof t === "string" && t.trim().toUpperCase() === "TELECOMMUTE"
    ),
    remoteColumn: null,
    applicantCountry: text(applicant) ?? text(obj(applicant).name),
    employmentType: text(one(value.employmentType)),
    skills:
      (Array.isArray(skills) ? skills : typeof skills === "string" ? skills.split(/[,;]/) : [])
        .map((s) => text(typeof s === "string" ? s : obj(s).name))
        .filter((s): s is string => s !== null),
    occupationalCategory: text(category) ?? text(obj(category).codeValue),
  };
}

/** Reads every record of a feed file; unreadable ones go to `onUnreadable`. */
export async function* readFeed(
  file: FeedFile,
  feed: string,
  onUnreadable: (record: UnreadableRecord) => void,
): AsyncGenerator<RawPosting> {
  if (file.kind === "ndjson") {
    let line = 0;
    for await (const row of readLines(readTextChunks(file.path))) {
      line++;
      if (row.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(row);
      } catch {
        value = null;
      }
      if (!value || typeof value !== "object" || Array.isArray(value)) {
        onUnreadable({ feed, file: file.name, line, reason: "malformed_record" });
        continue;
      }
      yield fromJobPosting(value as Record<string, unknown>, feed, file.name, line);
    }
    return;
  }
  const map = file.map!;
  let header = true;
  for await (const record of parseCsv(readTextChunks(file.path), map.delimiter)) {
    if (header) {
      header = false;
      continue;
    }
    if (record.fields.length !== map.header.length) {
      onUnreadable({ feed, file: file.name, line: record.line, reason: "malformed_record" });
      continue;
    }
    yield applyMap(map, record.fields, feed, file.name, record.line);
  }
}

export type { ColumnMap, FieldSpec };
