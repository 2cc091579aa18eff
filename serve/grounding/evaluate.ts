/**
 * Evaluation of the role report engine over the labelled set
 * (fixtures/grounding/labelled_reports.json): each case is a role request over small fixture
 * sources with the statements a reviewer expects, each supported by quotes of the sources.
 *
 * A cited chunk supports a statement when it comes from a labelled source of that statement and
 * its character span overlaps a labelled quote. Summary statements (the occupation) are
 * supported by any labelled quote of the case; an `onet_occupation` label lists the mentions of
 * the occupation's title that the summary should cite. Metrics:
 * - citation precision: cited (statement, chunk) pairs that support their statement;
 * - citation recall: labelled (statement, quote) pairs that the report cites;
 * - statement recall / precision: labelled statements stated / stated statements labelled;
 * - abstention accuracy: cases whose abstention matches the label;
 * - conflict accuracy: cases whose conflict codes equal the label.
 */
import { createHash } from "node:crypto";
import { composeReport } from "./report.ts";
import type { OccupationView, RetrievedChunk } from "./types.ts";

/** A labelled quote: the text in a source that supports a statement. */
export interface LabelledSupport {
  source_id: string;
  quote: string;
}

/** One labelled role request. */
export interface LabelledCase {
  id: string;
  request: { role_title: string; focus_areas?: string[]; top_k?: number };
  candidates: { onet_code: string; score: number }[];
  sources: { source_id: string; title: string; file?: string; text?: string }[];
  expected: {
    abstain: boolean;
    conflicts: string[];
    statements: { basis: string; term: string; support: LabelledSupport[] }[];
  };
}

/** The labelled set file. */
export interface LabelledSet {
  taxonomy_release: string;
  occupations: Record<string, {
    title: string;
    skills: string[];
    tasks: string[];
    technologies: string[];
  }>;
  cases: LabelledCase[];
}

/** A chunker: text to chunks with exact spans (serve/grounding/chunk.ts has the real one). */
export type Chunker = (
  text: string,
) => { ordinal: number; start_char: number; end_char: number; page: number; text: string }[];

/** Per-case outcome of the evaluation. */
export interface CaseResult {
  id: string;
  abstained: boolean;
  abstention_correct: boolean;
  conflicts: string[];
  conflicts_correct: boolean;
  citations: number;
  citations_supported: number;
  unsupported: string[];
  expected_pairs: number;
  pairs_cited: number;
  statements_expected: number;
  statements_found: number;
  statements_stated: number;
  statements_labelled: number;
}

/** Metrics over the labelled set. */
export interface Evaluation {
  cases: CaseResult[];
  citation_precision: number;
  citation_recall: number;
  statement_recall: number;
  statement_precision: number;
  abstention_accuracy: number;
  conflict_accuracy: number;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function ratio(num: number, den: number): number {
  return den === 0 ? 1 : Math.round((num / den) * 1e4) / 1e4;
}

/** The chunks of a case's sources, as retrieval would return them. */
function chunksOf(c: LabelledCase, chunker: Chunker): RetrievedChunk[] {
  return c.sources.flatMap((s) =>
    chunker(s.text ?? "").map((ch) => {
      const id = sha256(`${c.id}:${s.source_id}:${ch.ordinal}`).slice(0, 16);
      return {
        evidence_id: `ev_${id}`,
        chunk_id: `ch_${id}`,
        source_id: s.source_id,
        source_title: s.title,
        version_id: `ver_${s.source_id}`,
        version_number: 1,
        ordinal: ch.ordinal,
        start_char: ch.start_char,
        end_char: ch.end_char,
        page: ch.page,
        excerpt_sha256: sha256(ch.text),
        text: ch.text,
        rank: 0,
      };
    })
  );
}

const key = (basis: string, term: string) => `${basis}:${term.trim().toLowerCase()}`;

/** Runs composeReport on every labelled case and scores it against the labels. */
export function evaluateReports(set: LabelledSet, chunker: Chunker): Evaluation {
  const results: CaseResult[] = [];
  for (const c of set.cases) {
    const texts = new Map(c.sources.map((s) => [s.source_id, s.text ?? ""]));
    const span = (s: LabelledSupport) => {
      const at = texts.get(s.source_id)?.indexOf(s.quote) ?? -1;
      if (at < 0) throw new Error(`case ${c.id}: quote not found in ${s.source_id}: ${s.quote}`);
      return { source_id: s.source_id, start: at, end: at + s.quote.length };
    };
    const labels = new Map(c.expected.statements.map((st) => [
      key(st.basis, st.term),
      st.support.map(span),
    ]));
    const allSpans = [...labels.values()].flat();
    const occupation: OccupationView = {
      taxonomy_release: set.taxonomy_release,
      taxonomy_version: `labelled-${set.taxonomy_release}`,
      candidates: c.candidates.map((k) => ({
        onet_code: k.onet_code,
        score: k.score,
        ...set.occupations[k.onet_code],
      })),
    };
    const chunks = chunksOf(c, chunker);
    const byId = new Map(chunks.map((ch) => [ch.evidence_id, ch]));
    const out = composeReport({
      role_title: c.request.role_title,
      focus_areas: c.request.focus_areas ?? [],
      top_k: c.request.top_k ?? 5,
      include_passport: true,
      chunks,
      occupation,
      decision_id: `dec_${c.id}`,
      trace_id: `trc_${c.id}`,
    });
    const overlaps = (
      ch: RetrievedChunk,
      spans: { source_id: string; start: number; end: number }[],
    ) =>
      spans.some((s) =>
        s.source_id === ch.source_id && ch.start_char < s.end && s.start < ch.end_char
      );
    const r = out.report;
    let citations = 0;
    let supported = 0;
    const unsupported: string[] = [];
    const cited = new Map<string, RetrievedChunk[]>();
    for (const st of r.summary.statements) {
      cited.set(key(st.basis, st.term), st.evidence_reference_ids.map((id) => byId.get(id)!));
      for (const id of st.evidence_reference_ids) {
        citations++;
        if (overlaps(byId.get(id)!, allSpans)) supported++;
        else unsupported.push(`summary:${st.term}@${byId.get(id)!.source_id}`);
      }
    }
    const stated = [...r.responsibilities, ...r.skills, ...r.tools];
    for (const st of stated) {
      const k = key(st.basis, st.term);
      const refs = st.evidence_reference_ids.map((id) => byId.get(id)!);
      cited.set(k, refs);
      for (const ch of refs) {
        citations++;
        if (overlaps(ch, labels.get(k) ?? [])) supported++;
        else unsupported.push(`${k}@${ch.source_id}#${ch.ordinal}`);
      }
    }
    let pairs = 0;
    let pairsCited = 0;
    for (const [k, spans] of labels) {
      for (const s of spans) {
        pairs++;
        if ((cited.get(k) ?? []).some((ch) => overlaps(ch, [s]))) pairsCited++;
      }
    }
    const conflicts = (out.passport?.conflicts ?? []).map((x) => x.code).sort();
    const abstained = r.status === "abstained";
    results.push({
      id: c.id,
      abstained,
      abstention_correct: abstained === c.expected.abstain,
      conflicts,
      conflicts_correct:
        JSON.stringify(conflicts) === JSON.stringify([...c.expected.conflicts].sort()),
      citations,
      citations_supported: supported,
      unsupported,
      expected_pairs: pairs,
      pairs_cited: pairsCited,
      statements_expected: labels.size,
      statements_found: [...labels.keys()].filter((k) => cited.has(k)).length,
      statements_stated: stated.length,
      statements_labelled: stated.filter((st) => labels.has(key(st.basis, st.term))).length,
    });
  }
  const sum = (f: (x: CaseResult) => number) => results.reduce((n, x) => n + f(x), 0);
  return {
    cases: results,
    citation_precision: ratio(sum((x) => x.citations_supported), sum((x) => x.citations)),
    citation_recall: ratio(sum((x) => x.pairs_cited), sum((x) => x.expected_pairs)),
    statement_recall: ratio(sum((x) => x.statements_found), sum((x) => x.statements_expected)),
    statement_precision: ratio(sum((x) => x.statements_labelled), sum((x) => x.statements_stated)),
    abstention_accuracy: ratio(sum((x) => Number(x.abstention_correct)), results.length),
    conflict_accuracy: ratio(sum((x) => Number(x.conflicts_correct)), results.length),
  };
}

/** Reads the labelled set, inlining each source's `file` (relative to the set's folder). */
export async function loadLabelledSet(path: string): Promise<LabelledSet> {
  const set = JSON.parse(await Deno.readTextFile(path)) as LabelledSet;
  const dir = path.replace(/[^/]*$/, "");
  for (const c of set.cases) {
    for (const s of c.sources) {
      if (s.text === undefined && s.file !== undefined) {
        s.text = await Deno.readTextFile(dir + s.file);
      }
    }
  }
  return set;
}
