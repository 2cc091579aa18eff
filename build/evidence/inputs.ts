/**
 * Evidence inputs: finds the snapshot files under the --soc, --oews and --qwi paths, tells each
 * file's kind by its header, and keeps only the files whose sha256 the review registry approves.
 * Everything else is listed with the reason it was left out, for the manifest.
 */
import { basename, join } from "node:path";
import { sha256File } from "../hash.ts";
import { parseCsv, readTextChunks } from "../market/csv.ts";
import type { ReviewEntry } from "./reviews.ts";

/** The kinds of snapshot the evidence build reads. */
export type EvidenceKind =
  | "soc_definitions"
  | "oews_national"
  | "oews_sector"
  | "qwi_sector_employment"
  | "qwi_industry_labels";

/** Which flag a kind is given under. */
export const KIND_FLAG: Record<EvidenceKind, "soc" | "oews" | "qwi"> = {
  soc_definitions: "soc",
  oews_national: "oews",
  oews_sector: "oews",
  qwi_sector_employment: "qwi",
  qwi_industry_labels: "qwi",
};

/** An approved input, ready to stage. */
export interface EvidenceFile {
  path: string;
  name: string;
  kind: EvidenceKind;
  sha256: string;
  bytes: number;
  review: ReviewEntry;
}

/** A file that was found and left out. */
export interface LeftOut {
  file: string;
  sha256?: string;
  reason: string;
}

const norm = (h: string) => h.trim().toLowerCase();
const has = (header: string[], ...names: string[]) =>
  names.every((n) => header.map(norm).includes(n));

/** The kind of a CSV by its header, or null. OEWS national vs sector is told by its rows. */
export async function sniff(path: string): Promise<
  { kind: EvidenceKind | "oews"; header: string[] } | { kind: null; reason: string }
> {
  let header: string[] | null = null;
  try {
    for await (const record of parseCsv(readTextChunks(path))) {
      header = record.fields;
      break;
    }
  } catch {
    return { kind: null, reason: "not readable as UTF-8 CSV" };
  }
  if (!header) return { kind: null, reason: "empty file" };
  if (has(header, "soc group", "soc code", "soc title", "soc definition")) {
    return { kind: "soc_definitions", header };
  }
  if (has(header, "area", "naics", "i_group", "occ_code", "o_group", "tot_emp")) {
    return { kind: "oews", header };
  }
  if (has(header, "year", "quarter", "industry", "state", "county", "emp", "semp")) {
    return { kind: "qwi_sector_employment", header };
  }
  if (has(header, "industry", "label", "ind_level")) return { kind: "qwi_industry_labels", header };
  if (has(header, "state", "series_index", "year", "quarter")) {
    return {
      kind: null,
      reason: "QWI series without an industry (NAICS) key: packs use QWI only for the " +
        "dynamics of an occupation's industries",
    };
  }
  if (has(header, "name", "label", "concept")) {
    return { kind: null, reason: "QWI variable dictionary: documentation, not evidence" };
  }
  if (has(header, "field", "field description")) {
    return { kind: null, reason: "OEWS field descriptions: documentation, not evidence" };
  }
  return { kind: null, reason: "header matches no evidence kind" };
}

async function listFiles(path: string): Promise<string[]> {
  const info = await Deno.stat(path);
  if (info.isFile) return [path];
  const out: string[] = [];
  for await (const entry of Deno.readDir(path)) {
    if (entry.name.startsWith(".")) continue;
    const child = join(path, entry.name);
    if (entry.isDirectory) out.push(...await listFiles(child));
    else if (entry.isFile) out.push(child);
  }
  return out.sort();
}

/** Reads an OEWS file's I_GROUP and AREA_TYPE values to tell national from sector files. */
async function oewsKind(path: string, header: string[]): Promise<EvidenceKind | string> {
  const iGroup = header.map(norm).indexOf("i_group");
  const areaType = header.map(norm).indexOf("area_type");
  const groups = new Set<string>();
  const areas = new Set<string>();
  let first = true;
  for await (const record of parseCsv(readTextChunks(path))) {
    if (first) {
      first = false;
      continue;
    }
    groups.add(record.fields[iGroup] ?? "");
    if (areaType >= 0) areas.add(record.fields[areaType] ?? "");
  }
  if (areas.size > 0 && [...areas].some((a) => a !== "1")) {
    return "OEWS state or area estimates: this build serves national estimates only";
  }
  if (groups.size === 1 && groups.has("cross-industry")) return "oews_national";
  if (groups.size === 1 && groups.has("sector")) return "oews_sector";
  return `OEWS industry file at levels ${[...groups].sort().join(", ")}: only cross-industry ` +
    "and sector files are read";
}

/** Finds, classifies and review-checks every file under the given paths. */
export async function discoverEvidence(
  paths: { soc: string[]; oews: string[]; qwi: string[] },
  registry: Map<string, ReviewEntry>,
): Promise<{ files: EvidenceFile[]; leftOut: LeftOut[] }> {
  const files: EvidenceFile[] = [];
  const leftOut: LeftOut[] = [];
  const seen = new Set<string>();
  // A path may be given under several flags (one folder holding every kind): each file is
  // read once, and only under the flag its kind belongs to.
  const given = new Map<string, Set<"soc" | "oews" | "qwi">>();
  for (const flag of ["soc", "oews", "qwi"] as const) {
    for (const root of paths[flag]) {
      for (const path of await listFiles(root)) {
        if (!given.has(path)) given.set(path, new Set());
        given.get(path)!.add(flag);
      }
    }
  }
  for (const [path, flags] of given) {
    const name = basename(path);
    if (/field_descriptions/i.test(name)) {
      leftOut.push({ file: name, reason: "OEWS field descriptions: documentation, not evidence" });
      continue;
    }
    if (!/\.csv(\.gz)?$/i.test(name)) {
      leftOut.push({
        file: name,
        reason: /\.xlsx$/i.test(name)
          ? "spreadsheet: the CSV conversion of the same sheet is read instead"
          : "not a CSV file",
      });
      continue;
    }
    const sniffed = await sniff(path);
    if (sniffed.kind === null) {
      leftOut.push({ file: name, reason: sniffed.reason });
      continue;
    }
    let kind: EvidenceKind;
    if (sniffed.kind === "oews") {
      const k = await oewsKind(path, sniffed.header);
      if (k !== "oews_national" && k !== "oews_sector") {
        leftOut.push({ file: name, reason: k });
        continue;
      }
      kind = k;
    } else kind = sniffed.kind;
    if (!flags.has(KIND_FLAG[kind])) {
      leftOut.push({
        file: name,
        reason: `a ${kind} file given under --${[...flags].join("/--")}; give it under ` +
          `--${KIND_FLAG[kind]}`,
      });
      continue;
    }
    const sha256 = await sha256File(path);
    if (seen.has(sha256)) {
      leftOut.push({ file: name, sha256, reason: "the same content was given twice" });
      continue;
    }
    seen.add(sha256);
    const review = registry.get(sha256);
    if (!review) {
      leftOut.push({
        file: name,
        sha256,
        reason: "not approved: its sha256 is in no build/reviews/ entry (run " +
          "`deno task review <file> --reviewer <name> --note <text>` after reviewing it)",
      });
      continue;
    }
    const bytes = (await Deno.stat(path)).size;
    files.push({ path, name, kind, sha256, bytes, review });
  }
  return { files, leftOut };
}

/** "May 2025" -> "2025-05"; OEWS reference periods are May of a year. */
export function oewsPeriod(vintage: string): string | null {
  const m = vintage.match(/^May (\d{4})$/);
  return m ? `${m[1]}-05` : null;
}
