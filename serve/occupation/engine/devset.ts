/**
 * Labelled development sets from the O*NET release itself. Alternate, short and reported titles
 * are split into folds by their normalised form, so a held-out title is absent from the index in
 * every occupation (no label leaks); folds are assigned round-robin inside the occupation that
 * first lists the form, which stratifies them by occupation. Each held-out title is scored as
 * written and as a posting would write it (levels, ids, locations, shifts, upper case,
 * abbreviations). Used by the build (calibration fit) and by `deno task bench:quality`.
 */
import { normalizeTitle } from "../../text/normalize.ts";
import type { IndexOccupation, IndexTitle } from "./index.ts";

/** Number of folds. */
export const FOLDS = 5;
/** The fold the build calibrates on; the quality bench scores another one. */
export const CALIBRATION_FOLD = 0;

/** One labelled query. */
export interface DevExample {
  query: string;
  /** A job description sent with the title ("described" examples only). */
  description?: string;
  variant: "onet" | "posting" | "described";
  /** Every occupation that lists this title (normalised): each is a right answer. */
  accept: string[];
}

/** 32-bit FNV-1a: a stable hash for deterministic choices. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Fold of every normalised non-primary title form. */
export function assignFolds(titles: IndexTitle[], folds = FOLDS): Map<string, number> {
  const firstOwner = new Map<string, string>();
  for (const t of [...titles].sort((a, b) => a.onetCode < b.onetCode ? -1 : 1)) {
    if (t.kind === "primary") continue;
    const norm = normalizeTitle(t.title);
    if (norm && !firstOwner.has(norm)) firstOwner.set(norm, t.onetCode);
  }
  const byOwner = new Map<string, string[]>();
  for (const [norm, owner] of firstOwner) {
    const list = byOwner.get(owner) ?? [];
    list.push(norm);
    byOwner.set(owner, list);
  }
  const fold = new Map<string, number>();
  for (const [owner, norms] of [...byOwner].sort((a, b) => a[0] < b[0] ? -1 : 1)) {
    norms.sort((a, b) => fnv1a(a) - fnv1a(b) || (a < b ? -1 : 1));
    const offset = fnv1a(owner) % folds;
    norms.forEach((norm, i) => fold.set(norm, (i + offset) % folds));
  }
  return fold;
}

/** The titles to index and the labelled queries for one held-out fold. */
export function splitFold(
  titles: IndexTitle[],
  fold: number,
  options: { folds?: number; postingVariants?: boolean } = {},
): { index: IndexTitle[]; examples: DevExample[] } {
  const folds = assignFolds(titles, options.folds ?? FOLDS);
  const primaryNorms = new Set(
    titles.filter((t) => t.kind === "primary").map((t) => normalizeTitle(t.title)),
  );
  const index: IndexTitle[] = [];
  const held = new Map<string, { title: string; accept: Set<string> }>();
  for (const t of titles) {
    const norm = normalizeTitle(t.title);
    // A form that is some occupation's primary title stays: primary titles are never held out.
    if (t.kind !== "primary" && !primaryNorms.has(norm) && folds.get(norm) === fold) {
      const entry = held.get(norm) ?? { title: t.title, accept: new Set<string>() };
      entry.accept.add(t.onetCode);
      held.set(norm, entry);
    } else {
      index.push(t);
    }
  }
  const examples: DevExample[] = [];
  for (const [norm, { title, accept }] of [...held].sort((a, b) => a[0] < b[0] ? -1 : 1)) {
    const codes = [...accept].sort();
    examples.push({ query: title, variant: "onet", accept: codes });
    if (options.postingVariants !== false) {
      examples.push({
        query: postingVariant(title, fnv1a(norm)),
        variant: "posting",
        accept: codes,
      });
    }
  }
  return { index, examples };
}

/**
 * Posting-style examples with a description: the occupation's task statements of the held-out
 * fold (up to three, removed from the index) stand in for the duties a posting lists. Returns the
 * occupations without those tasks and one such example per posting-variant example whose first
 * occupation has a held-out task.
 */
export function describedExamples(
  occupations: IndexOccupation[],
  examples: DevExample[],
  fold: number,
  folds = FOLDS,
): { occupations: IndexOccupation[]; examples: DevExample[] } {
  const heldTasks = new Map<string, string[]>();
  const kept = occupations.map((o) => {
    const tasks: string[] = [];
    const held: string[] = [];
    for (const task of o.tasks) {
      (fnv1a(`${o.onetCode} ${task}`) % folds === fold ? held : tasks).push(task);
    }
    heldTasks.set(o.onetCode, held);
    return { ...o, tasks };
  });
  const described: DevExample[] = [];
  for (const example of examples) {
    if (example.variant !== "posting") continue;
    const tasks = [...heldTasks.get(example.accept[0]) ?? []]
      .sort((a, b) => fnv1a(example.query + a) - fnv1a(example.query + b))
      .slice(0, 3);
    if (tasks.length === 0) continue;
    described.push({ ...example, variant: "described", description: tasks.join(" ") });
  }
  return { occupations: kept, examples: described };
}

const ABBREVIATE: [RegExp, string][] = [
  [/\bregistered nurse\b/i, "RN"],
  [/\blicensed practical nurse\b/i, "LPN"],
  [/\bcertified nursing assistant\b/i, "CNA"],
  [/\btruck driver\b/i, "CDL Driver"],
  [/\bsoftware engineer\b/i, "SWE"],
  [/\bmanager\b/i, "Mgr"],
  [/\bassistant\b/i, "Asst"],
  [/\btechnician\b/i, "Tech"],
  [/\bengineer\b/i, "Eng"],
  [/\brepresentative\b/i, "Rep"],
  [/\badministrative\b/i, "Admin"],
  [/\badministrator\b/i, "Admin"],
  [/\bcoordinator\b/i, "Coord"],
  [/\bspecialist\b/i, "Spec"],
  [/\bdeveloper\b/i, "Dev"],
  [/\bdirector\b/i, "Dir"],
  [/\bsenior\b/i, "Sr."],
];

const LEVELS = ["Sr. ", "Senior ", "Jr. ", "", ""];
const SUFFIX_LEVELS = [" II", " III", " I", " - Level 2", ""];
const NOISE = [
  (h: number) => ` (Req #${10000 + (h % 89999)})`,
  () => " - Austin, TX",
  () => ", Chicago, IL",
  () => " | Remote",
  () => " - Night Shift",
  () => " (Full-Time)",
  (h: number) => ` - Job ID ${20000 + (h % 79999)}`,
  () => " - PRN",
];

/** A title as a job posting might write it; deterministic in (title, seed). */
export function postingVariant(title: string, seed: number): string {
  let text = title;
  for (const [pattern, short] of ABBREVIATE) {
    if (pattern.test(text) && (seed >>> 3) % 2 === 0) {
      text = text.replace(pattern, short);
      break;
    }
  }
  text = LEVELS[seed % LEVELS.length] + text + SUFFIX_LEVELS[(seed >>> 5) % SUFFIX_LEVELS.length];
  text += NOISE[(seed >>> 8) % NOISE.length](seed);
  if ((seed >>> 12) % 3 === 0) text = text.toUpperCase();
  return text;
}
