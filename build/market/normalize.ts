/**
 * One posting from raw feed strings to the typed record the market build stages: plain-text
 * description, dates with their precision, ISO country with the rule that found it, the
 * remote/hybrid signal with the rule that fired, and the normalised dedup fields. Records with
 * no title are dropped (counted); a bad date or an unknown country is counted and kept.
 */
import { foldText, normalizeTitle } from "../../serve/text/normalize.ts";
import { countryFromLocation, normalizeCountry } from "./country.ts";
import type { RawDate, RawPosting } from "./feeds.ts";
import { detectRemote, type RemoteRule } from "./remote.ts";

/** Why a record was dropped, or flagged and kept. */
export type RecordIssue =
  | "malformed_record"
  | "no_title"
  | "unparseable_date"
  | "no_date"
  | "unknown_country";

/** Issues that drop the record; the others keep it with the field empty. */
export const DROPPING: ReadonlySet<RecordIssue> = new Set(["malformed_record", "no_title"]);

/** A normalised posting, as staged. */
export interface NormalizedPosting {
  feed: string;
  source_file: string;
  source_line: number;
  source_id: string | null;
  title: string;
  title_norm: string;
  description: string;
  employer: string | null;
  employer_norm: string | null;
  date_posted: string | null;
  date_precision: "day" | "month" | null;
  valid_through: string | null;
  country: string | null;
  country_rule: string | null;
  region: string | null;
  locality: string | null;
  remote: boolean;
  hybrid: boolean;
  remote_rule: RemoteRule | null;
  employment_type: string | null;
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** HTML to plain text: block tags become line breaks, other tags spaces, entities decoded. */
export function htmlToText(html: string): string {
  if (!/[<&]/.test(html)) return html;
  return html
    .replace(/<\s*(p|br|li|div|h\d|tr)\b[^>]*>/gi, "\n")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === "#") {
        const code = name[1] === "x" || name[1] === "X"
          ? parseInt(name.slice(2), 16)
          : parseInt(name.slice(1), 10);
        return code > 0 && code < 0x110000 && !(code >= 0xd800 && code < 0xe000)
          ? String.fromCodePoint(code)
          : " ";
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    });
}

const MIN_DATE = "1990-01-01";
const MAX_DATE = "2100-12-31";

function isoDay(d: Date): string | null {
  if (Number.isNaN(d.getTime())) return null;
  const day = d.toISOString().slice(0, 10);
  return day >= MIN_DATE && day <= MAX_DATE ? day : null;
}

function validDay(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
    return null;
  }
  return isoDay(date);
}

/**
 * Reads a date. Day precision: ISO dates and date-times (converted to the UTC day), M/D/YYYY,
 * epoch milliseconds or seconds. Month precision: `YYYY-MM`, which is dated the 1st of the
 * month. Anything else, or a day outside 1990-2100, is unparseable (null).
 */
export function parseDate(raw: RawDate): { day: string; precision: "day" | "month" } | null {
  const value = raw.value.trim();
  if (raw.format === "epoch_ms" || raw.format === "epoch_s") {
    const n = Number(value);
    if (!Number.isFinite(n)) return null;
    const day = isoDay(new Date(raw.format === "epoch_ms" ? n : n * 1000));
    return day ? { day, precision: "day" } : null;
  }
  let m = /^(\d{4})-(\d{2})$/.exec(value);
  if (m) {
    const day = validDay(+m[1], +m[2], 1);
    return day ? { day, precision: "month" } : null;
  }
  if (raw.format === "month") return null;
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (m) {
    const day = validDay(+m[1], +m[2], +m[3]);
    return day ? { day, precision: "day" } : null;
  }
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (m) {
    const day = validDay(+m[3], +m[1], +m[2]);
    return day ? { day, precision: "day" } : null;
  }
  m = /^(\d{4})-(\d{2})-(\d{2})[T ]\d{2}:\d{2}/.exec(value);
  if (m) {
    // Date parses "2026-02-30T10:00Z" as March 2nd: check the written day first.
    if (validDay(+m[1], +m[2], +m[3]) === null) return null;
    // With no offset the time is read as UTC, so the day never depends on the machine's zone.
    const iso = value.replace(" ", "T");
    const noOffset = /^[\d-]+T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/.test(iso);
    const day = isoDay(new Date(noOffset ? iso + "Z" : iso));
    return day ? { day, precision: "day" } : null;
  }
  return null;
}

const LEGAL =
  /\b(inc|incorporated|llc|l\.l\.c|ltd|limited|corp|corporation|co|company|gmbh|plc|p\.l\.c|sa|s\.a|ag|a\.g|bv|b\.v|pty)\b\.?/g;

/** An employer's comparison form: folded, punctuation and legal suffixes removed. */
export function normalizeEmployer(name: string): string {
  return foldText(name).replace(LEGAL, " ").replace(/[^a-z0-9]+/g, " ").trim();
}

/** Splits "City, ST" / "City, Region, Country" into locality and region. */
function splitLocation(text: string): { locality: string | null; region: string | null } {
  const parts = text.split(",").map((p) => p.trim()).filter((p) => p !== "");
  if (parts.length >= 2) return { locality: parts[0], region: parts[1] };
  return { locality: null, region: null };
}

/** Normalises one raw record; returns the posting and the issues found (dropping or not). */
export function normalizePosting(
  raw: RawPosting,
): { posting: NormalizedPosting | null; issues: RecordIssue[] } {
  const issues: RecordIssue[] = [];
  const title = raw.title === null ? "" : htmlToText(raw.title).replace(/\s+/g, " ").trim();
  const titleNorm = normalizeTitle(title);
  if (titleNorm === "") return { posting: null, issues: ["no_title"] };

  let datePosted: string | null = null;
  let precision: "day" | "month" | null = null;
  if (raw.datePosted === null) issues.push("no_date");
  else {
    const parsed = parseDate(raw.datePosted);
    if (parsed) {
      datePosted = parsed.day;
      precision = parsed.precision;
    } else issues.push("unparseable_date");
  }
  const valid = raw.validThrough ? parseDate(raw.validThrough) : null;

  let region = raw.region;
  let locality = raw.locality;
  if (raw.locationText && region === null && locality === null) {
    ({ region, locality } = splitLocation(raw.locationText));
  }
  let country: string | null = null;
  let countryRule: string | null = null;
  const tries: [string | null, (s: string) => { code: string; rule: string } | null, string][] = [
    [raw.country, normalizeCountry, "country"],
    [raw.locationText, countryFromLocation, "location"],
    // A region reads as "locality, region": "CA" there is California, not Canada.
    [region, (r) => countryFromLocation(`${locality ?? "-"}, ${r}`), "region"],
    [raw.applicantCountry, normalizeCountry, "applicant_location"],
  ];
  for (const [value, resolve, field] of tries) {
    if (!value) continue;
    const match = resolve(value);
    if (match) {
      country = match.code;
      countryRule = `${field}:${match.rule}`;
      break;
    }
  }
  if (country === null && raw.countryDefault) {
    country = normalizeCountry(raw.countryDefault)?.code ?? null;
    if (country) countryRule = "feed_default";
  }
  if (country === null) issues.push("unknown_country");

  const description = htmlToText(raw.description);
  const remote = detectRemote(raw.telecommute, raw.remoteColumn, title, description);
  const employer = raw.employer ? htmlToText(raw.employer).trim() : null;
  return {
    posting: {
      feed: raw.feed,
      source_file: raw.file,
      source_line: raw.line,
      source_id: raw.identifier,
      title,
      title_norm: titleNorm,
      description,
      employer: employer || null,
      employer_norm: employer ? normalizeEmployer(employer) || null : null,
      date_posted: datePosted,
      date_precision: precision,
      valid_through: valid?.day ?? null,
      country,
      country_rule: countryRule,
      region: region ? foldText(region).trim() || null : null,
      locality: locality ? foldText(locality).trim() || null : null,
      remote: remote.remote,
      hybrid: remote.hybrid,
      remote_rule: remote.rule,
      employment_type: raw.employmentType,
    },
    issues,
  };
}
