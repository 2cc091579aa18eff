/**
 * Evidence handling of the role report: the matched terms, the order in which a statement cites
 * its supporting chunks (sources round-robin, so `top_k` references span as many sources as
 * possible), and the selection of at most 50 references overall.
 */
import type { ReportInput, RetrievedChunk } from "./types.ts";
import type { EvidenceRef } from "./report_schemas.ts";
import { REPORT_BOUNDS } from "./report_schemas.ts";
import { compareText, type TermMatcher, tokenize } from "./report_match.ts";

/** A taxonomy term or focus area with the chunks that support it. */
export interface Term {
  basis: "onet_occupation" | "onet_task" | "onet_skill" | "onet_technology" | "focus_area";
  term: string;
  /** Position in the taxonomy list (or the request), for stable ordering. */
  order: number;
  /** Phrase matcher; null for tasks (matched on key words). */
  matcher: TermMatcher | null;
  onet_code: string | null;
  supporting: RetrievedChunk[];
}

/** How much of one candidate's vocabulary the evidence supports. */
export interface CandidateSupport {
  candidate: ReportInput["occupation"]["candidates"][number];
  terms: Term[];
  considered: number;
  supported: number;
  /** Supported occupation-specific terms: title, tasks, technologies. */
  specific: number;
  sources: number;
}

function byRank(a: RetrievedChunk, b: RetrievedChunk): number {
  return b.rank - a.rank || compareText(a.evidence_id, b.evidence_id);
}

/**
 * The supporting chunks in citation order: each source's chunks by `weight` (then full-text
 * rank, then id); sources by their first chunk; then round-robin over sources.
 */
export function citeOrder(
  chunks: RetrievedChunk[],
  weight: (c: RetrievedChunk) => number = () => 0,
): RetrievedChunk[] {
  const order = (a: RetrievedChunk, b: RetrievedChunk) => weight(b) - weight(a) || byRank(a, b);
  const bySource = new Map<string, RetrievedChunk[]>();
  for (const c of [...chunks].sort(order)) {
    bySource.set(c.source_id, [...(bySource.get(c.source_id) ?? []), c]);
  }
  const lists = [...bySource.values()].sort((a, b) => order(a[0], b[0]));
  const out: RetrievedChunk[] = [];
  for (let round = 0; out.length < chunks.length; round++) {
    for (const list of lists) if (list[round] !== undefined) out.push(list[round]);
  }
  return out;
}

/**
 * Chooses at most 50 evidence ids: conflict evidence first, then the chunks cited by the most
 * statements, then by full-text rank and id.
 */
export function selectEvidence(
  cited: Map<string, { chunk: RetrievedChunk; statements: number }>,
  conflictIds: Set<string>,
): Set<string> {
  const ranked = [...cited.values()].sort((a, b) =>
    Number(conflictIds.has(b.chunk.evidence_id)) - Number(conflictIds.has(a.chunk.evidence_id)) ||
    b.statements - a.statements || byRank(a.chunk, b.chunk)
  );
  return new Set(
    ranked.slice(0, REPORT_BOUNDS.evidence_references).map((c) => c.chunk.evidence_id),
  );
}

/** The reference of a chunk: ids, span and hash, never its text. */
export function toReference(c: RetrievedChunk): EvidenceRef {
  return {
    id: c.evidence_id,
    source_id: c.source_id,
    source_title: c.source_title,
    version_id: c.version_id,
    version_number: c.version_number,
    chunk_id: c.chunk_id,
    ordinal: c.ordinal,
    start_char: c.start_char,
    end_char: c.end_char,
    page: c.page,
    excerpt_sha256: c.excerpt_sha256,
  };
}

/** Orders references by source, version and position. */
export function byPosition(a: EvidenceRef, b: EvidenceRef): number {
  return compareText(a.source_id, b.source_id) || a.version_number - b.version_number ||
    compareText(a.version_id, b.version_id) || a.ordinal - b.ordinal || compareText(a.id, b.id);
}

/** The stated term a focus area is the same words as (its term or one of its phrases), if any. */
export function sameTerm(focus: Term, stated: Term[]): Term | null {
  const key = tokenize(focus.term).join(" ");
  return stated.find((t) =>
    tokenize(t.term).join(" ") === key ||
    (t.matcher?.phrases ?? []).some((p) => p.join(" ") === key)
  ) ?? null;
}
