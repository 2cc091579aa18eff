/**
 * Assembles the role report response from the engine's decisions: statements with their
 * citations, evidence/source/artifact references, snapshots, signals, flags, the draft, the
 * trace and the passport. Numbers, ids, hashes and taxonomy terms only; no chunk text.
 */
import type { ReportInput, RetrievedChunk } from "./types.ts";
import type { EvidenceRef, RoleReportResponseBody, Statement } from "./report_schemas.ts";
import type { DetectedConflict } from "./report_conflicts.ts";
import {
  byPosition,
  type CandidateSupport,
  citeOrder,
  sameTerm,
  selectEvidence,
  type Term,
  toReference,
} from "./report_evidence.ts";
import { type Assessment, buildPassport, PASSPORT_RULES, statusOf } from "./report_passport.ts";
import { compareText } from "./report_match.ts";

/** What the engine decided, for assembly. */
export interface AssemblyContext {
  input: ReportInput;
  topK: number;
  chunks: RetrievedChunk[];
  primary: CandidateSupport | null;
  alternatives: CandidateSupport[];
  supports: CandidateSupport[];
  sections: { responsibilities: Term[]; skills: Term[]; tools: Term[]; focus: Term[] };
  focus: Term[];
  conflicts: DetectedConflict[];
  abstained: boolean;
  dropped: number;
  rulesVersion: string;
}

interface Draft {
  section: "summary" | "responsibilities" | "skills" | "tools";
  term: Term;
  text: string;
  supporting: RetrievedChunk[];
  cited: RetrievedChunk[];
}

const HEADINGS = {
  summary: "Summary",
  responsibilities: "Responsibilities",
  skills: "Skills",
  tools: "Tools and technologies",
} as const;
const ID_PREFIX = { summary: "summary", responsibilities: "task", skills: "skill", tools: "tool" };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function sourcesOf(chunks: RetrievedChunk[]): number {
  return new Set(chunks.map((c) => c.source_id)).size;
}

/** The rule-composed text of a statement: the term, its basis and counts. */
function statementText(term: Term, supporting: RetrievedChunk[]): string {
  const support = ` Supported by ${plural(sourcesOf(supporting), "source")}.`;
  switch (term.basis) {
    case "onet_task":
      return `Responsibility (O*NET task, ${term.onet_code}): ${term.term}${support}`;
    case "onet_skill":
      return `Skill (O*NET, ${term.onet_code}): ${term.term}.${support}`;
    case "onet_technology":
      return `Tool or technology (O*NET, ${term.onet_code}): ${term.term}.${support}`;
    case "focus_area":
      return `Focus area found in the evidence: ${term.term}.${support}`;
    default:
      return `Occupation (O*NET): ${term.term} (${term.onet_code}).${support}`;
  }
}

/** The summary statement of a candidate: its support, citing the chunks with most terms. */
function occupationDraft(s: CandidateSupport, best: boolean, topK: number): Draft {
  const weight = new Map<string, number>();
  const chunks = new Map<string, RetrievedChunk>();
  for (const t of s.terms) {
    for (const c of t.supporting) {
      weight.set(c.evidence_id, (weight.get(c.evidence_id) ?? 0) + 1);
      chunks.set(c.evidence_id, c);
    }
  }
  const supporting = [...chunks.values()];
  const lead = best ? "Best-supported O*NET occupation" : "Also supported";
  const text = `${lead}: ${s.candidate.title} (${s.candidate.onet_code}), ` +
    `${s.supported} of ${plural(s.considered, "term")} supported by ` +
    `${plural(supporting.length, "chunk")} from ${plural(s.sources, "source")}.`;
  return {
    section: "summary",
    term: s.terms[0],
    text,
    supporting,
    cited: citeOrder(supporting, (c) => weight.get(c.evidence_id) ?? 0).slice(0, topK),
  };
}

function occupationSupport(s: CandidateSupport) {
  return {
    onet_code: s.candidate.onet_code,
    title: s.candidate.title,
    taxonomy_score: Math.min(1, Math.max(0, s.candidate.score)),
    terms_considered: s.considered,
    terms_supported: s.supported,
    specific_terms_supported: s.specific,
    sources: s.sources,
  };
}

/** Builds the response from the engine's decisions. */
export function assembleReport(ctx: AssemblyContext): RoleReportResponseBody {
  const { input, topK, sections } = ctx;
  const drafts: Draft[] = [];
  if (!ctx.abstained && ctx.primary !== null) {
    drafts.push(occupationDraft(ctx.primary, true, topK));
    for (const alt of ctx.alternatives) drafts.push(occupationDraft(alt, false, topK));
  }
  const add = (section: Draft["section"], terms: Term[]) => {
    for (const term of terms) {
      const cited = citeOrder(term.supporting).slice(0, topK);
      drafts.push({
        section,
        term,
        text: statementText(term, term.supporting),
        supporting: term.supporting,
        cited,
      });
    }
  };
  add("responsibilities", sections.responsibilities);
  add("skills", [...sections.skills, ...sections.focus]);
  add("tools", sections.tools);

  // At most 50 references: conflict evidence first, then the most cited chunks.
  const cited = new Map<string, { chunk: RetrievedChunk; statements: number }>();
  for (const d of drafts) {
    for (const c of d.cited) {
      const e = cited.get(c.evidence_id) ?? { chunk: c, statements: 0 };
      e.statements++;
      cited.set(c.evidence_id, e);
    }
  }
  const conflictIds = new Set(ctx.conflicts.flatMap((c) => c.evidence_ids));
  for (const c of ctx.chunks) {
    if (conflictIds.has(c.evidence_id) && !cited.has(c.evidence_id)) {
      cited.set(c.evidence_id, { chunk: c, statements: 0 });
    }
  }
  const keep = selectEvidence(cited, conflictIds);
  const clipped = cited.size - keep.size;

  const counters = { summary: 0, responsibilities: 0, skills: 0, tools: 0 };
  const statements: (Statement & { section: Draft["section"]; source: Term })[] = [];
  for (const d of drafts) {
    const ids = d.cited.filter((c) => keep.has(c.evidence_id)).map((c) => c.evidence_id);
    if (ids.length === 0) continue;
    counters[d.section]++;
    statements.push({
      section: d.section,
      source: d.term,
      id: `${ID_PREFIX[d.section]}_${counters[d.section]}`,
      text: d.text,
      term: d.term.term,
      basis: d.section === "summary" ? "onet_occupation" : d.term.basis,
      onet_code: d.term.onet_code,
      support: sourcesOf(d.supporting),
      supporting_chunks: d.supporting.length,
      evidence_reference_ids: ids,
    });
  }
  const strip = ({ section: _s, source: _t, ...rest }: (typeof statements)[number]) => rest;
  const inSection = (name: Draft["section"]) =>
    statements.filter((s) => s.section === name).map(strip);

  const references: EvidenceRef[] = ctx.chunks.filter((c) => keep.has(c.evidence_id))
    .map(toReference).sort(byPosition);
  const statedTerms = statements.filter((s) => s.section !== "summary");
  const focusAreas = ctx.focus.map((f) => {
    // Covered by a stated taxonomy term with the same words, else by its own statement.
    const hit = sameTerm(f, statedTerms.filter((s) => s.source !== f).map((s) => s.source)) ?? f;
    const statement = statedTerms.find((s) => s.source === hit);
    return {
      focus_area: f.term,
      covered: statement !== undefined,
      statement_id: statement?.id ?? null,
    };
  });

  const statementSources = new Set(
    statements.flatMap((s) => s.evidence_reference_ids).map((id) =>
      references.find((r) => r.id === id)!.source_id
    ),
  );
  const assessment: Assessment = {
    specific_terms: ctx.primary?.specific ?? 0,
    supported_statements: statedTerms.length,
    cited_sources: statementSources.size,
    chunks_cited: references.length,
    occupation_score: ctx.primary?.candidate.score ?? 0,
    conflicts: ctx.conflicts,
    focus_total: ctx.focus.length,
    focus_covered: focusAreas.filter((f) => f.covered).length,
  };
  const status = ctx.abstained ? "abstained" : statusOf(assessment);

  const uncovered = focusAreas.filter((f) => !f.covered);
  const signals: string[] = [];
  if (ctx.chunks.length === 0) signals.push("no_evidence_retrieved");
  else if (ctx.primary === null) signals.push("no_taxonomy_term_supported");
  if ((ctx.primary?.specific ?? 0) < PASSPORT_RULES.min_specific_terms) {
    signals.push("too_few_specific_terms_supported");
  }
  if (ctx.abstained) signals.push("insufficient_evidence");
  if (statementSources.size === 1) signals.push("single_source");
  if (ctx.conflicts.length > 0) signals.push("conflicting_sources");
  if (uncovered.length > 0) signals.push("focus_areas_not_covered");
  if (ctx.primary !== null && ctx.primary.candidate.score < 0.5) signals.push("low_taxonomy_score");
  const topCandidate = input.occupation.candidates[0]?.onet_code;
  if (ctx.primary !== null && ctx.primary.candidate.onet_code !== topCandidate) {
    signals.push("evidence_favours_other_candidate");
  }
  if (clipped > 0) signals.push("evidence_references_clipped");

  const ratio = ctx.focus.length === 0 ? null : assessment.focus_covered / ctx.focus.length;
  const flags: string[] = [];
  if (ctx.abstained) flags.push("abstained_insufficient_evidence");
  for (const c of ctx.conflicts) flags.push(c.code);
  if (ratio !== null && ratio < PASSPORT_RULES.min_focus_coverage) {
    flags.push("limited_focus_area_coverage");
  }
  if (!ctx.abstained && statementSources.size === 1) flags.push("single_source");
  if (status === "review_required" && flags.length === 0) flags.push("limited_evidence");

  const abstentionReason = ctx.chunks.length === 0
    ? "No evidence was retrieved for the role from the tenant's sources."
    : `Only ${plural(ctx.primary?.specific ?? 0, "occupation-specific term")} (title, tasks, ` +
      `technologies) of the candidate occupations is supported by the evidence; at least ` +
      `${PASSPORT_RULES.min_specific_terms} and ${PASSPORT_RULES.min_supported_statements} ` +
      `supported statements are required.`;
  const limitations: string[] = [];
  if (ctx.abstained) limitations.push(abstentionReason);
  for (const c of ctx.conflicts) limitations.push(`Sources disagree: ${c.summary}`);
  if (statementSources.size === 1) limitations.push("All statements rest on a single source.");
  for (const f of uncovered) {
    limitations.push(`Focus area not supported by the evidence: ${f.focus_area}.`);
  }
  for (const s of ctx.supports.filter((x) => x.supported === 0)) {
    limitations.push(
      `No evidence supports candidate occupation ${s.candidate.title} (${s.candidate.onet_code}).`,
    );
  }
  if (signals.includes("evidence_favours_other_candidate")) {
    limitations.push("The best-supported occupation is not the top-ranked candidate of the title.");
  }
  if (clipped > 0) {
    limitations.push(`Evidence references were clipped to 50; ${clipped} cited chunks left out.`);
  }
  if (ctx.dropped > 0) {
    limitations.push(`${ctx.dropped} supported statements beyond 20 per section were left out.`);
  }
  limitations.push(
    "Statements are O*NET terms and focus areas found in the evidence; requirements the " +
      "taxonomy does not name are not reported.",
  );

  const occupationText = ctx.primary === null
    ? "no supported occupation"
    : `best-supported occupation ${ctx.primary.candidate.title} (${ctx.primary.candidate.onet_code})`;
  const passportSummary = status === "abstained"
    ? `Abstained: ${abstentionReason}`
    : `${status === "completed" ? "Completed" : "Review required"}: ` +
      `${plural(statements.length, "statement")} on ${plural(references.length, "chunk")} from ` +
      `${plural(statementSources.size, "source")}; ${occupationText}; ` +
      `${plural(ctx.conflicts.length, "conflict")}.`;

  const sectionNames = ["summary", "responsibilities", "skills", "tools"] as const;
  const snapshots = new Map<string, RetrievedChunk[]>();
  for (const c of ctx.chunks) {
    const key = `${c.source_id}\u0000${c.version_id}`;
    snapshots.set(key, [...(snapshots.get(key) ?? []), c]);
  }
  const supportingIds = new Set(drafts.flatMap((d) => d.supporting.map((c) => c.evidence_id)));
  const refIds = new Set(references.map((r) => r.id));

  return {
    report: {
      status: ctx.abstained ? "abstained" : "grounded",
      summary: {
        occupation: ctx.primary === null ? null : occupationSupport(ctx.primary),
        alternatives: ctx.alternatives.map(occupationSupport),
        statements: inSection("summary"),
      },
      responsibilities: inSection("responsibilities"),
      skills: inSection("skills"),
      tools: inSection("tools"),
      focus_areas: focusAreas,
    },
    draft: {
      status: "extractive_draft",
      sections: sectionNames.map((name) => ({
        name,
        heading: HEADINGS[name],
        statement_ids: statements.filter((s) => s.section === name).map((s) => s.id),
      })),
      review_flags: flags,
      editable: !ctx.abstained,
    },
    trace_id: input.trace_id,
    trace: {
      trace_id: input.trace_id,
      rules_version: ctx.rulesVersion,
      steps: [
        {
          name: "retrieve",
          counts: { chunks: ctx.chunks.length, sources: sourcesOf(ctx.chunks) },
          ids: [...new Set(ctx.chunks.map((c) => c.source_id))].sort(compareText),
        },
        {
          name: "match_taxonomy",
          counts: {
            candidates: ctx.supports.length,
            terms_considered: ctx.supports.reduce((n, s) => n + s.considered, 0),
            terms_supported: ctx.supports.reduce((n, s) => n + s.supported, 0),
          },
          ids: ctx.supports.map((s) => s.candidate.onet_code),
        },
        {
          name: "select_occupation",
          counts: {
            specific_terms_supported: ctx.primary?.specific ?? 0,
            terms_supported: ctx.primary?.supported ?? 0,
            alternatives: ctx.alternatives.length,
          },
          ids: ctx.primary === null ? [] : [ctx.primary.candidate.onet_code],
        },
        {
          name: "match_focus_areas",
          counts: { focus_areas: ctx.focus.length, covered: assessment.focus_covered },
          ids: [],
        },
        {
          name: "detect_conflicts",
          counts: { conflicts: ctx.conflicts.length, evidence: conflictIds.size },
          ids: ctx.conflicts.map((c) => c.code),
        },
        {
          name: "select_evidence",
          counts: { chunks_cited: cited.size, references: references.length, clipped },
          ids: references.map((r) => r.id),
        },
        {
          name: "decide",
          counts: {
            statements: statements.length,
            abstained: ctx.abstained ? 1 : 0,
            review_flags: flags.length,
          },
          ids: [status],
        },
      ],
    },
    evidence_references: references,
    source_references: [...snapshots.values()].map((list) => list[0])
      .filter((c) =>
        references.some((r) => r.source_id === c.source_id && r.version_id === c.version_id)
      )
      .map((c) => {
        const ids = references.filter((r) =>
          r.source_id === c.source_id && r.version_id === c.version_id
        ).map((r) => r.id);
        return {
          source_id: c.source_id,
          source_title: c.source_title,
          version_id: c.version_id,
          version_number: c.version_number,
          evidence_reference_ids: ids,
          statements_supported: statements.filter((s) =>
            s.evidence_reference_ids.some((id) => ids.includes(id))
          ).length,
        };
      })
      .sort((a, b) =>
        compareText(a.source_id, b.source_id) || compareText(a.version_id, b.version_id)
      ),
    artifact_references: [
      {
        kind: "taxonomy",
        name: "onet",
        release: input.occupation.taxonomy_release,
        version: input.occupation.taxonomy_version,
      },
      { kind: "rules", name: ctx.rulesVersion, release: null, version: "1" },
    ],
    evidence_snapshots: [...snapshots.values()].map((list) => ({
      source_id: list[0].source_id,
      version_id: list[0].version_id,
      version_number: list[0].version_number,
      chunks_considered: list.length,
      chunks_supporting: list.filter((c) => supportingIds.has(c.evidence_id)).length,
      chunks_cited: list.filter((c) => refIds.has(c.evidence_id)).length,
    })).sort((a, b) =>
      compareText(a.source_id, b.source_id) || compareText(a.version_id, b.version_id)
    ),
    uncertainty_signals: signals,
    review_flags: flags,
    passport: input.include_passport
      ? buildPassport(assessment, {
        decision_id: input.decision_id,
        summary: passportSummary,
        abstention_reason: ctx.abstained ? abstentionReason : null,
        limitations,
        references,
        abstained: ctx.abstained,
      })
      : null,
  };
}
