/**
 * The review registry: the snapshot files a person has reviewed and approved as evidence.
 * One JSON file per approved snapshot under build/reviews/, committed with the code, so a
 * change of evidence is a reviewed change of the repository. The evidence build reads a file
 * only when its sha256 is approved here; any other input is left out and the manifest says so.
 */
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256File } from "../hash.ts";

/** The folder of the committed registry. */
export const REVIEWS_DIR = fileURLToPath(new URL("../reviews/", import.meta.url));

/** One approved snapshot. */
export interface ReviewEntry {
  /** File name as reviewed (the build matches by sha256, so a renamed copy still matches). */
  file: string;
  sha256: string;
  bytes: number;
  /** e.g. "BLS OEWS national cross-industry estimates". */
  source: string;
  /** e.g. "May 2025"; for SOC "2018"; for QWI "2010Q1-2010Q4". */
  vintage: string;
  reviewer: string;
  /** YYYY-MM-DD */
  reviewed_on: string;
  notes: string;
  caveats: string[];
  /** OEWS only: the top code of the vintage ("#" wages are at or above it), as the reviewer
   * read it in the release's field descriptions; absent when the snapshot does not state it. */
  top_code?: { hourly: number; annual: number };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const SHA = /^[0-9a-f]{64}$/;

/** Checks one entry's shape; throws naming the file and the field. */
export function parseReview(text: string, origin: string): ReviewEntry {
  const v = JSON.parse(text) as Partial<ReviewEntry>;
  const bad = (field: string) => new Error(`${origin}: review entry has no valid ${field}`);
  for (const field of ["file", "source", "vintage", "reviewer", "notes"] as const) {
    if (typeof v[field] !== "string" || (field !== "notes" && v[field] === "")) throw bad(field);
  }
  if (typeof v.sha256 !== "string" || !SHA.test(v.sha256)) throw bad("sha256");
  if (typeof v.bytes !== "number" || !Number.isInteger(v.bytes) || v.bytes < 0) throw bad("bytes");
  if (typeof v.reviewed_on !== "string" || !DATE.test(v.reviewed_on)) throw bad("reviewed_on");
  if (!Array.isArray(v.caveats) || v.caveats.some((c) => typeof c !== "string")) {
    throw bad("caveats");
  }
  if (
    v.top_code !== undefined &&
    !(typeof v.top_code?.hourly === "number" && typeof v.top_code?.annual === "number")
  ) throw bad("top_code");
  return v as ReviewEntry;
}

/** Every entry of the registry, by sha256. Two entries for one sha256 are an error. */
export async function readRegistry(dir = REVIEWS_DIR): Promise<Map<string, ReviewEntry>> {
  const entries = new Map<string, ReviewEntry>();
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && entry.name.endsWith(".json")) names.push(entry.name);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  for (const name of names.sort()) {
    const review = parseReview(await Deno.readTextFile(join(dir, name)), name);
    if (entries.has(review.sha256)) {
      throw new Error(`${name}: sha256 ${review.sha256} is already reviewed in another entry`);
    }
    entries.set(review.sha256, review);
  }
  return entries;
}

/** Source and vintage read off the official file names, when the reviewer gives none. */
export function inferSource(file: string): { source: string; vintage: string } | null {
  const name = basename(file);
  let m = name.match(/^national_M(\d{4})_dl/i);
  if (m) return { source: "BLS OEWS national cross-industry estimates", vintage: `May ${m[1]}` };
  m = name.match(/^natsector_M(\d{4})_dl/i);
  if (m) return { source: "BLS OEWS national industry-sector estimates", vintage: `May ${m[1]}` };
  if (/^soc_2018_definitions/i.test(name)) {
    return { source: "BLS Standard Occupational Classification structure", vintage: "2018" };
  }
  m = name.match(/qwi_(\d{4})_/i);
  if (m && /qwi/i.test(name)) {
    return {
      source: "U.S. Census Bureau LEHD Quarterly Workforce Indicators",
      vintage: `${m[1]}Q1-${m[1]}Q4`,
    };
  }
  if (/^industry_labels/i.test(name)) {
    return { source: "U.S. Census Bureau LEHD QWI industry labels (NAICS)", vintage: "NAICS" };
  }
  return null;
}

/** What `deno task review` is given. */
export interface ReviewRequest {
  path: string;
  reviewer: string;
  notes: string;
  caveats?: string[];
  source?: string;
  vintage?: string;
  /** YYYY-MM-DD; default today (UTC). */
  on?: string;
  topCode?: { hourly: number; annual: number };
}

/** A registry file name for an entry: readable and unique per content. */
export function entryFileName(entry: Pick<ReviewEntry, "file" | "sha256">): string {
  const stem = basename(entry.file).replace(/[^A-Za-z0-9._-]+/g, "_").replace(/\.[^.]*$/, "");
  return `${stem}.${entry.sha256.slice(0, 12)}.json`;
}

/** Adds an entry for a file to the registry; returns it with the path written. */
export async function addReview(
  request: ReviewRequest,
  dir = REVIEWS_DIR,
): Promise<{ entry: ReviewEntry; path: string; existed: boolean }> {
  if (request.reviewer.trim() === "") throw new Error("--reviewer is required");
  const inferred = inferSource(request.path);
  const source = request.source ?? inferred?.source;
  const vintage = request.vintage ?? inferred?.vintage;
  if (!source || !vintage) {
    throw new Error(
      `cannot tell the source and vintage of ${basename(request.path)} from its name: ` +
        "pass --source and --vintage",
    );
  }
  const on = request.on ?? new Date().toISOString().slice(0, 10);
  if (!DATE.test(on)) throw new Error("--on takes a date YYYY-MM-DD");
  const info = await Deno.stat(request.path);
  if (!info.isFile) throw new Error(`${request.path} is not a file`);
  const entry: ReviewEntry = {
    file: basename(request.path),
    sha256: await sha256File(request.path),
    bytes: info.size,
    source,
    vintage,
    reviewer: request.reviewer.trim(),
    reviewed_on: on,
    notes: request.notes,
    caveats: request.caveats ?? [],
    ...(request.topCode ? { top_code: request.topCode } : {}),
  };
  const existing = (await readRegistry(dir)).get(entry.sha256);
  const path = join(dir, existing ? entryFileName(existing) : entryFileName(entry));
  if (existing) return { entry: existing, path, existed: true };
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(entry, null, 2) + "\n");
  return { entry, path, existed: false };
}
