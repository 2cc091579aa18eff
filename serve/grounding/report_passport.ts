/**
 * The decision passport's rules (DecisionPassportV1). Every threshold is a constant below.
 *
 * Evidence sufficiency (`assessment.evidence_sufficiency.status`):
 * - insufficient: fewer than `min_specific_terms` occupation-specific terms (the occupation
 *   title, O*NET tasks, O*NET technologies) are supported by a chunk, or fewer than
 *   `min_supported_statements` statements are supported. Generic O*NET skills alone never
 *   establish a role: every occupation has them.
 * - limited: not insufficient, but fewer than `sufficient_specific_terms` specific terms, or a
 *   single cited source.
 * - sufficient: otherwise.
 *
 * Status:
 * - abstained when evidence is insufficient (the report then makes no statement);
 * - review_required when sources conflict, focus-area coverage is limited (ratio below
 *   `min_focus_coverage`), all evidence comes from one source, or sufficiency is limited;
 * - completed otherwise.
 *
 * Metrics (rounded to 4 decimals, 0-1):
 * - confidence, method `occupation_score_and_specific_support_v1`:
 *   0.4 * taxonomy score of the best-supported occupation
 *   + 0.6 * min(1, specific terms supported / `confidence_saturation`); 0 when abstained.
 * - trust_score, method `source_diversity_conflict_penalty_v1`:
 *   min(1, cited sources / `trust_source_saturation`) * max(0, 1 - `conflict_penalty` * conflicts).
 *
 * Coverage (basis `focus_areas`): ratio = focus areas covered / focus areas requested; status
 * measured when ratio >= `min_focus_coverage`, limited below; not_applicable with ratio null when
 * the request has no focus areas.
 *
 * Limitations: at most 25; when more are found the 25th says how many were left out.
 */
import type { DecisionPassport, EvidenceRef } from "./report_schemas.ts";
import { REPORT_BOUNDS } from "./report_schemas.ts";
import type { DetectedConflict } from "./report_conflicts.ts";

/** The thresholds of the passport rules (see the module comment). */
export const PASSPORT_RULES = {
  min_specific_terms: 2,
  min_supported_statements: 3,
  sufficient_specific_terms: 4,
  min_focus_coverage: 0.5,
  confidence_saturation: 8,
  trust_source_saturation: 3,
  conflict_penalty: 0.25,
} as const;

export const CONFIDENCE_METHOD = "occupation_score_and_specific_support_v1";
export const TRUST_METHOD = "source_diversity_conflict_penalty_v1";

/** What the passport rules look at. */
export interface Assessment {
  specific_terms: number;
  supported_statements: number;
  cited_sources: number;
  chunks_cited: number;
  occupation_score: number;
  conflicts: DetectedConflict[];
  focus_total: number;
  focus_covered: number;
}

/** The sufficiency of the evidence under the rules. */
export function sufficiencyOf(a: Assessment): "sufficient" | "limited" | "insufficient" {
  if (
    a.specific_terms < PASSPORT_RULES.min_specific_terms ||
    a.supported_statements < PASSPORT_RULES.min_supported_statements
  ) return "insufficient";
  if (a.specific_terms < PASSPORT_RULES.sufficient_specific_terms || a.cited_sources < 2) {
    return "limited";
  }
  return "sufficient";
}

/** The focus-area coverage ratio (null without focus areas). */
export function coverageRatio(a: Assessment): number | null {
  return a.focus_total === 0 ? null : round4(a.focus_covered / a.focus_total);
}

/** The passport status under the rules. */
export function statusOf(a: Assessment): DecisionPassport["status"] {
  const sufficiency = sufficiencyOf(a);
  if (sufficiency === "insufficient") return "abstained";
  const ratio = coverageRatio(a);
  const limitedCoverage = ratio !== null && ratio < PASSPORT_RULES.min_focus_coverage;
  if (a.conflicts.length > 0 || limitedCoverage || a.cited_sources < 2) return "review_required";
  return sufficiency === "limited" ? "review_required" : "completed";
}

/** Rounds to 4 decimals. */
export function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

/** Clips limitations to the bound, the last one counting what was left out. */
export function clipLimitations(all: string[]): string[] {
  const max = REPORT_BOUNDS.limitations;
  if (all.length <= max) return all;
  return [...all.slice(0, max - 1), `${all.length - (max - 1)} further limitations omitted.`];
}

/** Builds the passport from the assessment and the report's parts. */
export function buildPassport(
  a: Assessment,
  parts: {
    decision_id: string;
    summary: string;
    abstention_reason: string | null;
    limitations: string[];
    references: EvidenceRef[];
    /** The engine's abstention, which the status follows. */
    abstained: boolean;
  },
): DecisionPassport {
  const status = parts.abstained ? "abstained" : statusOf(a);
  const sufficiency = parts.abstained ? "insufficient" : sufficiencyOf(a);
  const strength = Math.min(1, a.specific_terms / PASSPORT_RULES.confidence_saturation);
  const confidence = status === "abstained" ? 0 : round4(0.4 * a.occupation_score + 0.6 * strength);
  const sourceFactor = Math.min(1, a.cited_sources / PASSPORT_RULES.trust_source_saturation);
  const penalty = Math.max(0, 1 - PASSPORT_RULES.conflict_penalty * a.conflicts.length);
  const ratio = coverageRatio(a);
  return {
    decision_id: parts.decision_id,
    type: "customer_grounded_role_intelligence",
    status,
    summary: parts.summary.slice(0, REPORT_BOUNDS.passport_summary),
    abstention: status === "abstained"
      ? {
        status: "abstained",
        reason: (parts.abstention_reason ?? "Insufficient evidence.").slice(0, 500),
      }
      : { status: "not_abstained", reason: null },
    assessment: {
      confidence: {
        value: confidence,
        method: CONFIDENCE_METHOD,
        inputs: {
          occupation_score: a.occupation_score,
          specific_terms_supported: a.specific_terms,
        },
      },
      trust_score: {
        value: round4(sourceFactor * penalty),
        method: TRUST_METHOD,
        inputs: { cited_sources: a.cited_sources, conflicts: a.conflicts.length },
      },
      evidence_sufficiency: {
        status: sufficiency,
        supported_statements: a.supported_statements,
        specific_terms_supported: a.specific_terms,
        sources: a.cited_sources,
        chunks_cited: a.chunks_cited,
      },
      limitations: clipLimitations(parts.limitations.map((l) => l.slice(0, 500))),
    },
    conflicts: a.conflicts.map((c) => ({
      code: c.code,
      summary: c.summary,
      evidence_reference_ids: c.evidence_ids,
    })),
    coverage: ratio === null
      ? {
        status: "not_applicable",
        ratio: null,
        basis: "focus_areas",
        reason: "The request names no focus areas.",
      }
      : {
        status: ratio >= PASSPORT_RULES.min_focus_coverage ? "measured" : "limited",
        ratio,
        basis: "focus_areas",
        reason: `${a.focus_covered} of ${a.focus_total} focus areas are supported by the evidence.`,
      },
    evidence: { references: parts.references.slice(0, REPORT_BOUNDS.evidence_references) },
  };
}
