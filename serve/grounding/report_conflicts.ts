/**
 * Conflict detection across sources: contradicting years of experience or seniority for the
 * role. Rules (documented in the passport rules too):
 * - Experience: "5+ years", "at least 3 years", "3 or more years", "2-4 years", "up to 2 years",
 *   and a bare "2 years" only when "experience" follows in the sentence. A bare number is exact
 *   (2 years = [2, 2]); "N+" and "at least N" are open ranges. Two requirements are compatible
 *   when their ranges overlap and their minimums differ by less than 2 years.
 * - Seniority: entry-level/junior (band 1), mid-level (2), senior (3), lead/principal (4), when
 *   the level word is followed by "level" or, within three words, by a role noun (a word of the
 *   role title or engineer, nurse, analyst, role, position, ...). Mentions after words such as
 *   "mentor", "report to", "with" or "support" describe other people and are skipped. Two
 *   levels are compatible when their bands differ by at most 1.
 * - A conflict exists when two distinct sources have no compatible pair of requirements. Values
 *   inside one source never conflict with each other (a career ladder is not a contradiction).
 */
import type { RetrievedChunk } from "./types.ts";
import { compareText, normalizeToken, tokenize } from "./report_match.ts";

/** A detected conflict: code, a summary of numbers and levels only, and the chunks involved. */
export interface DetectedConflict {
  code: "experience_years_conflict" | "seniority_conflict";
  summary: string;
  evidence_ids: string[];
}

interface Requirement {
  source_id: string;
  evidence_id: string;
  /** Experience: [min, max] with max null when open. Seniority: [band, band]. */
  min: number;
  max: number | null;
  label: string;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};
const N = "(\\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)";
const Y = "(?:years?|yrs?)";
const EXPERIENCE_PATTERNS: { re: RegExp; kind: "range" | "min" | "max" | "exact" }[] = [
  { re: new RegExp(`\\b${N}\\s*(?:-|–|—|to)\\s*${N}\\s*\\+?\\s*${Y}\\b`, "g"), kind: "range" },
  { re: new RegExp(`\\b${N}\\s*\\+\\s*${Y}\\b`, "g"), kind: "min" },
  {
    re: new RegExp(
      `\\b(?:at least|a minimum of|minimum of|minimum|min\\.?|no less than)\\s*${N}\\s*${Y}\\b`,
      "g",
    ),
    kind: "min",
  },
  { re: new RegExp(`\\b${N}\\s*(?:or more|plus)\\s*${Y}\\b`, "g"), kind: "min" },
  {
    re: new RegExp(`\\b(?:up to|no more than|at most|maximum of)\\s*${N}\\s*${Y}\\b`, "g"),
    kind: "max",
  },
  { re: new RegExp(`\\b${N}\\s*${Y}(?=[^.;\\n]{0,40}\\bexperience)`, "g"), kind: "exact" },
];
const NOT_EXPERIENCE = /^\s*(?:ago|old|of history|in business|warranty|of age)\b/;

function num(s: string): number {
  return Object.hasOwn(NUMBER_WORDS, s) ? NUMBER_WORDS[s] : Number(s);
}

function experienceLabel(min: number, max: number | null): string {
  if (max === null) return `${min}+ years`;
  if (min === 0) return `up to ${max} years`;
  return min === max ? `${min} years` : `${min}-${max} years`;
}

/** Experience requirements stated in one chunk. */
function experienceIn(chunk: RetrievedChunk): Requirement[] {
  const out: Requirement[] = [];
  if (!/\b(?:years?|yrs?)\b/i.test(chunk.text)) return out;
  let text = chunk.text.normalize("NFKC").toLowerCase();
  for (const { re, kind } of EXPERIENCE_PATTERNS) {
    for (const m of text.matchAll(re)) {
      if (NOT_EXPERIENCE.test(text.slice(m.index! + m[0].length))) continue;
      const a = num(m[1]);
      const b = m[2] === undefined ? a : num(m[2]);
      const [min, max] = kind === "range"
        ? [Math.min(a, b), Math.max(a, b)]
        : kind === "min"
        ? [a, null]
        : kind === "max"
        ? [0, a]
        : [a, a];
      if (min > 40 || (max !== null && max > 40)) continue;
      out.push({
        source_id: chunk.source_id,
        evidence_id: chunk.evidence_id,
        min,
        max,
        label: experienceLabel(min, max),
      });
    }
    // Mask what matched so a later, looser pattern does not read it again.
    text = text.replace(re, (s) => " ".repeat(s.length));
  }
  return out;
}

const LEVELS = new Map<string, number>(Object.entries({
  entry: 1,
  junior: 1,
  jr: 1,
  mid: 2,
  intermediate: 2,
  senior: 3,
  sr: 3,
  lead: 4,
  principal: 4,
}));
const BAND_LABELS = ["", "junior or entry-level", "mid-level", "senior", "lead or principal"];
const ROLE_NOUNS = new Set(
  ("engineer developer scientist analyst nurse role position candidate hire associate " +
    "specialist technician worker mover laborer programmer designer consultant administrator " +
    "architect manager rn").split(" ").map(normalizeToken),
);
const OTHER_PEOPLE = new Set(
  ("mentor mentoring coach coaching supervise supervising train training manage managing guide " +
    "guiding support supporting report reporting assist assisting help helping alongside under " +
    "with by to partner will you must should can").split(" ").map(normalizeToken),
);

/** Seniority levels stated in one chunk for the role (role nouns from the role title). */
function seniorityIn(chunk: RetrievedChunk, roleNouns: Set<string>): Requirement[] {
  const out: Requirement[] = [];
  if (!/\b(?:entry|junior|jr|mid|intermediate|senior|sr|lead|principal)\b/i.test(chunk.text)) {
    return out;
  }
  for (const sentence of chunk.text.split(/\n+|(?<=[.!?;])\s+/)) {
    const t = tokenize(sentence);
    for (const [i, word] of t.entries()) {
      const band = LEVELS.get(word);
      if (band === undefined) continue;
      const next = t.slice(i + 1, i + 4);
      const levelled = next[0] === "level";
      const byRole = next.some((w) => roleNouns.has(w) || ROLE_NOUNS.has(w));
      const labelled = t.slice(Math.max(0, i - 2), i).some((w) =>
        w === "seniority" || w === "level"
      );
      if (band === 1 && word === "entry" && !levelled) continue;
      if (band === 2 && word === "mid" && !levelled && !byRole) continue;
      if (!levelled && !byRole && !labelled) continue;
      if (t.slice(Math.max(0, i - 3), i).some((w) => OTHER_PEOPLE.has(w))) continue;
      out.push({
        source_id: chunk.source_id,
        evidence_id: chunk.evidence_id,
        min: band,
        max: band,
        label: BAND_LABELS[band],
      });
    }
  }
  return out;
}

function compatible(code: DetectedConflict["code"], a: Requirement, b: Requirement): boolean {
  if (code === "seniority_conflict") return Math.abs(a.min - b.min) <= 1;
  const overlap = a.min <= (b.max ?? Infinity) && b.min <= (a.max ?? Infinity);
  return overlap && Math.abs(a.min - b.min) < 2;
}

/** One conflict of a code from the requirements of all sources, or null. */
function conflictOf(
  code: DetectedConflict["code"],
  reqs: Requirement[],
): DetectedConflict | null {
  const bySource = new Map<string, Requirement[]>();
  for (const r of reqs) bySource.set(r.source_id, [...(bySource.get(r.source_id) ?? []), r]);
  const sources = [...bySource.keys()].sort();
  const involved = new Set<string>();
  for (const [i, a] of sources.entries()) {
    for (const b of sources.slice(i + 1)) {
      const ok = bySource.get(a)!.some((x) => bySource.get(b)!.some((y) => compatible(code, x, y)));
      if (!ok) involved.add(a).add(b);
    }
  }
  if (involved.size < 2) return null;
  // One chunk per (source, value), round-robin over sources so every source is represented.
  const perSource = [...involved].sort().map((s) => {
    const seen = new Set<string>();
    return bySource.get(s)!
      .sort((x, y) => x.min - y.min || compareText(x.evidence_id, y.evidence_id))
      .filter((r) => !seen.has(r.label) && seen.add(r.label));
  });
  const ids: string[] = [];
  for (let round = 0; ids.length < 10; round++) {
    const layer = perSource.map((rs) => rs[round]).filter((r) => r !== undefined);
    if (layer.length === 0) break;
    for (const r of layer) {
      if (!ids.includes(r.evidence_id) && ids.length < 10) ids.push(r.evidence_id);
    }
  }
  const counts = new Map<string, { min: number; max: number; sources: Set<string> }>();
  for (const rs of perSource) {
    for (const r of rs) {
      const c = counts.get(r.label) ?? { min: r.min, max: r.max ?? 99, sources: new Set() };
      c.sources.add(r.source_id);
      counts.set(r.label, c);
    }
  }
  const values = [...counts.entries()]
    .sort(([la, a], [lb, b]) => a.min - b.min || a.max - b.max || compareText(la, lb))
    .map(([label, c]) => `${label} (${c.sources.size} source${c.sources.size === 1 ? "" : "s"})`);
  const what = code === "seniority_conflict" ? "seniority levels" : "experience requirements";
  const summary = `${involved.size} sources state incompatible ${what}: ${values.join("; ")}.`;
  return { code, summary: summary.slice(0, 500), evidence_ids: ids };
}

/** Detects experience and seniority conflicts across the sources of the chunks. */
export function detectConflicts(chunks: RetrievedChunk[], roleTitle: string): DetectedConflict[] {
  const roleNouns = new Set(tokenize(roleTitle).filter((t) => !LEVELS.has(t)));
  const experience = chunks.flatMap(experienceIn);
  const seniority = chunks.flatMap((c) => seniorityIn(c, roleNouns));
  return [
    conflictOf("experience_years_conflict", experience),
    conflictOf("seniority_conflict", seniority),
  ].filter((c): c is DetectedConflict => c !== null);
}
