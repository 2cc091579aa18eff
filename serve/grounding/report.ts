/**
 * The role report engine: pure, deterministic and extractive. Statements are taxonomy
 * vocabulary (the occupation title, O*NET tasks, skills and technologies) and the request's
 * focus areas, stated only when a chunk of the tenant's evidence supports them (matching rules:
 * report_match.ts), composed by fixed rules with counts. Chunk text never leaves the engine:
 * the response and the trace carry ids, spans, hashes, numbers and taxonomy terms only.
 *
 * Composition rules:
 * - Every candidate occupation's title, tasks, skills and technologies are matched against
 *   every chunk. The best-supported candidate has the most supported occupation-specific terms
 *   (title, tasks, technologies), then the most supported terms, then the higher taxonomy
 *   score, then the lower code. Its supported tasks, skills and technologies become the
 *   responsibilities, skills and tools (at most 20 per section, the best-supported first:
 *   distinct sources, then chunks, then taxonomy order).
 * - A focus area is covered by a stated term with the same words, or else stated itself (basis
 *   focus_area, in the skills section) when a chunk supports it.
 * - Each statement cites at most `top_k` supporting chunks, sources round-robin; at most 50
 *   references overall (conflict evidence first). `support` counts the distinct sources of all
 *   supporting chunks.
 * - When the evidence is insufficient (PASSPORT_RULES) the report abstains: no statement, and
 *   uncertainty_signals and review_flags say why, with or without the passport.
 * Passport rules: report_passport.ts; conflict rules: report_conflicts.ts.
 */
import type { ReportInput, RetrievedChunk } from "./types.ts";
import type { RoleReportResponseBody } from "./report_schemas.ts";
import { REPORT_BOUNDS } from "./report_schemas.ts";
import {
  compareText,
  keyStems,
  keyWordThreshold,
  matchesKeyWords,
  matchesTerm,
  type PreparedText,
  prepareText,
  skillMatcher,
  technologyMatcher,
  type TermMatcher,
  titleMatcher,
  tokenize,
} from "./report_match.ts";
import { detectConflicts } from "./report_conflicts.ts";
import { sufficiencyOf } from "./report_passport.ts";
import { type CandidateSupport, sameTerm, type Term } from "./report_evidence.ts";
import { assembleReport } from "./report_assemble.ts";

export { CONFIDENCE_METHOD, PASSPORT_RULES, TRUST_METHOD } from "./report_passport.ts";

/** Version of the composition rules, reported in the trace and artifact references. */
export const REPORT_RULES_VERSION = "role_report_rules_v1";
/** Statements kept per section (the best-supported first). */
export const MAX_STATEMENTS_PER_SECTION = 20;
/** Alternative occupations named in the summary. */
export const MAX_ALTERNATIVES = 2;

type Candidate = ReportInput["occupation"]["candidates"][number];
type Prepared = Map<string, PreparedText>;

function phraseKey(text: string): string {
  return tokenize(text).join(" ");
}

/** Matches every term of a candidate against the chunks. */
function supportOf(candidate: Candidate, chunks: RetrievedChunk[], prepared: Prepared) {
  const terms: Term[] = [];
  const seen = new Set<string>();
  const add = (basis: Term["basis"], term: string, order: number, matcher: TermMatcher | null) => {
    const key = `${basis}:${phraseKey(term)}`;
    if (seen.has(key) || phraseKey(term) === "") return;
    seen.add(key);
    const stems = keyStems(term);
    const need = keyWordThreshold(stems.length);
    const test = (t: PreparedText) =>
      matcher === null ? matchesKeyWords(t, stems, need) : matchesTerm(t, matcher);
    const supporting = chunks.filter((c) => test(prepared.get(c.evidence_id)!));
    terms.push({ basis, term, order, matcher, onet_code: candidate.onet_code, supporting });
  };
  add("onet_occupation", candidate.title, 0, titleMatcher(candidate.title));
  candidate.tasks.forEach((t, i) => add("onet_task", t, i, null));
  candidate.skills.forEach((s, i) => add("onet_skill", s, i, skillMatcher(s)));
  candidate.technologies.forEach((t, i) => add("onet_technology", t, i, technologyMatcher(t)));
  const supported = terms.filter((t) => t.supporting.length > 0);
  const sources = new Set(supported.flatMap((t) => t.supporting.map((c) => c.source_id)));
  return {
    candidate,
    terms,
    considered: terms.length,
    supported: supported.length,
    specific: supported.filter((t) => t.basis !== "onet_skill").length,
    sources: sources.size,
  } satisfies CandidateSupport;
}

/** Focus areas (deduplicated by words) with the chunks that support them. */
function focusTerms(focusAreas: string[], chunks: RetrievedChunk[], prepared: Prepared): Term[] {
  const seen = new Set<string>();
  const out: Term[] = [];
  for (const [i, raw] of focusAreas.entries()) {
    const focus = raw.trim();
    const key = phraseKey(focus);
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    const matcher: TermMatcher = { phrases: [tokenize(focus)] };
    const stems = keyStems(focus);
    // Up to 4 key words: all in one sentence; longer focus areas: as many as a task needs.
    const need = stems.length <= 4 ? stems.length : keyWordThreshold(stems.length);
    const supporting = chunks.filter((c) => {
      const t = prepared.get(c.evidence_id)!;
      return matchesTerm(t, matcher) || matchesKeyWords(t, stems, need);
    });
    out.push({ basis: "focus_area", term: focus, order: i, matcher, onet_code: null, supporting });
  }
  return out;
}

function distinctSources(chunks: RetrievedChunk[]): number {
  return new Set(chunks.map((c) => c.source_id)).size;
}

function bySupport(a: Term, b: Term): number {
  return distinctSources(b.supporting) - distinctSources(a.supporting) ||
    b.supporting.length - a.supporting.length || a.order - b.order;
}

/** Composes the role report (and the passport when asked) from the input. Pure. */
export function composeReport(input: ReportInput): RoleReportResponseBody {
  const byId = new Map<string, RetrievedChunk>();
  for (const c of input.chunks) if (!byId.has(c.evidence_id)) byId.set(c.evidence_id, c);
  const chunks = [...byId.values()].sort((a, b) => compareText(a.evidence_id, b.evidence_id));
  const prepared: Prepared = new Map(chunks.map((c) => [c.evidence_id, prepareText(c.text)]));
  const topK = Math.max(1, Math.min(REPORT_BOUNDS.top_k, Math.floor(input.top_k)));

  const supports = input.occupation.candidates.map((c) => supportOf(c, chunks, prepared))
    .sort((a, b) =>
      b.specific - a.specific || b.supported - a.supported ||
      b.candidate.score - a.candidate.score ||
      compareText(a.candidate.onet_code, b.candidate.onet_code)
    );
  const primary = supports[0] !== undefined && supports[0].supported > 0 ? supports[0] : null;
  const alternatives = supports.slice(1).filter((s) => s.supported > 0).slice(0, MAX_ALTERNATIVES);

  const pick = (basis: Term["basis"]) =>
    (primary?.terms ?? []).filter((t) => t.basis === basis && t.supporting.length > 0)
      .sort(bySupport);
  const full = [pick("onet_task"), pick("onet_skill"), pick("onet_technology")];
  const dropped = full.reduce((n, s) => n + Math.max(0, s.length - MAX_STATEMENTS_PER_SECTION), 0);
  const [responsibilities, skills, tools] = full.map((s) => s.slice(0, MAX_STATEMENTS_PER_SECTION));
  const focus = focusTerms(input.focus_areas, chunks, prepared);
  const stated = [...responsibilities, ...skills, ...tools];
  const focusStatements = focus.filter((f) =>
    f.supporting.length > 0 && sameTerm(f, stated) === null
  );
  const conflicts = detectConflicts(chunks, input.role_title);
  const sufficiency = sufficiencyOf({
    specific_terms: primary?.specific ?? 0,
    supported_statements: stated.length + focusStatements.length,
    // Sources do not decide abstention; only the amount of supported vocabulary does.
    cited_sources: 2,
    chunks_cited: 0,
    occupation_score: 0,
    conflicts,
    focus_total: focus.length,
    focus_covered: 0,
  });
  const abstained = sufficiency === "insufficient";

  return assembleReport({
    input,
    topK,
    chunks,
    primary,
    alternatives,
    supports,
    sections: abstained
      ? { responsibilities: [], skills: [], tools: [], focus: [] }
      : { responsibilities, skills, tools, focus: focusStatements },
    focus,
    conflicts,
    abstained,
    dropped,
    rulesVersion: REPORT_RULES_VERSION,
  });
}
