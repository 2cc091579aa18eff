/**
 * Schemas of the role report (spec 2.10 and 8): the request, the response and the decision
 * passport (DecisionPassportV1). The response never carries source text: statements are taxonomy
 * vocabulary, evidence is referenced by id, span and sha256 of the excerpt.
 */
import { z } from "@hono/zod-openapi";

/** Bounds of the role report request and the passport (spec 2.10 and 8). */
export const REPORT_BOUNDS = {
  role_title: 500,
  role_context: 10_000,
  focus_areas: 20,
  focus_area: 200,
  source_ids: 20,
  source_id: 200,
  top_k: 20,
  top_k_default: 5,
  passport_summary: 500,
  limitations: 25,
  evidence_references: 50,
  conflict_references_min: 2,
  conflict_references_max: 10,
} as const;

/** Pattern of snake_case codes (conflict codes, coverage basis). */
const CODE_PATTERN = /^[a-z][a-z0-9_]*$/;

export const RoleReportRequest = z.object({
  role_title: z.string().min(1).max(REPORT_BOUNDS.role_title).openapi({
    description: "The role to report on, as the customer names it.",
    example: "Senior Data Scientist",
  }),
  role_context: z.string().max(REPORT_BOUNDS.role_context).nullable().optional().openapi({
    description: "Optional context (e.g. a posting) used to rank occupations; never returned.",
  }),
  focus_areas: z.array(z.string().min(1).max(REPORT_BOUNDS.focus_area))
    .max(REPORT_BOUNDS.focus_areas).optional().openapi({
      description: "Skills or topics the report must check against the evidence (coverage).",
      example: ["machine learning", "SQL"],
    }),
  source_ids: z.array(z.string().min(1).max(REPORT_BOUNDS.source_id))
    .max(REPORT_BOUNDS.source_ids).optional().openapi({
      description: "Restrict retrieval to these sources of the tenant; all enabled when absent.",
    }),
  top_k: z.number().int().min(1).max(REPORT_BOUNDS.top_k).default(REPORT_BOUNDS.top_k_default)
    .openapi({ description: "Evidence references kept per statement." }),
  include_passport: z.boolean().default(false).openapi({
    description: "Return the decision passport (DecisionPassportV1); null otherwise.",
  }),
}).strict().openapi("RoleReportRequest");

/** Where a statement's vocabulary comes from. */
export const StatementBasis = z.enum([
  "onet_occupation",
  "onet_task",
  "onet_skill",
  "onet_technology",
  "focus_area",
]).openapi({
  description: "onet_*: an O*NET term of the best-supported occupation; focus_area: a focus " +
    "area of the request. Statements are composed by rules from this vocabulary only.",
});

export const ReportStatement = z.object({
  id: z.string().openapi({ description: "Statement id, unique in the report." }),
  text: z.string().openapi({
    description: "Rule-composed text made of taxonomy terms, focus areas and counts only.",
  }),
  term: z.string().openapi({ description: "The taxonomy term (or focus area) stated." }),
  basis: StatementBasis,
  onet_code: z.string().nullable().openapi({ description: "Occupation the term belongs to." }),
  support: z.number().int().min(1).openapi({
    description: "Distinct sources with at least one chunk supporting the statement.",
  }),
  supporting_chunks: z.number().int().min(1).openapi({
    description: "Chunks supporting the statement (cited or not).",
  }),
  evidence_reference_ids: z.array(z.string()).min(1).openapi({
    description: "Ids of evidence_references that support it (at most top_k).",
  }),
}).strict().openapi("ReportStatement");

const OccupationSupport = z.object({
  onet_code: z.string(),
  title: z.string(),
  taxonomy_score: z.number().min(0).max(1).openapi({
    description: "The occupation engine's calibrated score for the role title.",
  }),
  terms_considered: z.number().int().min(0),
  terms_supported: z.number().int().min(0).openapi({
    description: "Tasks, skills and technologies (and the title) found in the evidence.",
  }),
  specific_terms_supported: z.number().int().min(0).openapi({
    description: "Occupation-specific terms supported: the title, tasks and technologies.",
  }),
  sources: z.number().int().min(0),
}).strict();

const FocusAreaCoverage = z.object({
  focus_area: z.string().openapi({ description: "The focus area as requested." }),
  covered: z.boolean(),
  statement_id: z.string().nullable().openapi({
    description: "The statement that covers it (a focus_area statement or a taxonomy term).",
  }),
}).strict();

export const RoleReport = z.object({
  status: z.enum(["grounded", "abstained"]).openapi({
    description: "abstained: the evidence is insufficient and no statement is made.",
  }),
  summary: z.object({
    occupation: OccupationSupport.nullable().openapi({
      description: "The best-supported occupation; null when nothing supports any candidate.",
    }),
    alternatives: z.array(OccupationSupport).openapi({
      description: "Other candidates with some support, best first.",
    }),
    statements: z.array(ReportStatement),
  }).strict(),
  responsibilities: z.array(ReportStatement).openapi({ description: "Supported O*NET tasks." }),
  skills: z.array(ReportStatement).openapi({
    description: "Supported O*NET skills and focus areas.",
  }),
  tools: z.array(ReportStatement).openapi({ description: "Supported O*NET technologies." }),
  focus_areas: z.array(FocusAreaCoverage),
}).strict().openapi("RoleReport");

export const EvidenceReference = z.object({
  id: z.string().openapi({ description: "Evidence id (stable per source version and chunk)." }),
  source_id: z.string(),
  source_title: z.string(),
  version_id: z.string(),
  version_number: z.number().int(),
  chunk_id: z.string(),
  ordinal: z.number().int(),
  start_char: z.number().int(),
  end_char: z.number().int(),
  page: z.number().int(),
  excerpt_sha256: z.string().openapi({ description: "sha256 of the chunk text (not returned)." }),
}).strict().openapi("EvidenceReference");

export const SourceReference = z.object({
  source_id: z.string(),
  source_title: z.string(),
  version_id: z.string(),
  version_number: z.number().int(),
  evidence_reference_ids: z.array(z.string()),
  statements_supported: z.number().int().min(0),
}).strict().openapi("SourceReference");

export const ArtifactReference = z.object({
  kind: z.enum(["taxonomy", "rules"]),
  name: z.string(),
  release: z.string().nullable(),
  version: z.string(),
}).strict().openapi("ArtifactReference");

export const EvidenceSnapshot = z.object({
  source_id: z.string(),
  version_id: z.string(),
  version_number: z.number().int(),
  chunks_considered: z.number().int().min(0),
  chunks_supporting: z.number().int().min(0),
  chunks_cited: z.number().int().min(0),
}).strict().openapi("EvidenceSnapshot");

export const ReportDraft = z.object({
  status: z.literal("extractive_draft"),
  sections: z.array(
    z.object({
      name: z.enum(["summary", "responsibilities", "skills", "tools"]),
      heading: z.string(),
      statement_ids: z.array(z.string()),
    }).strict(),
  ).openapi({ description: "Ordered sections a reviewer edits, by statement id." }),
  review_flags: z.array(z.string()),
  editable: z.boolean().openapi({ description: "False when the report abstained." }),
}).strict().openapi("ReportDraft");

export const ReportTrace = z.object({
  trace_id: z.string(),
  rules_version: z.string(),
  steps: z.array(
    z.object({
      name: z.string(),
      counts: z.record(z.string(), z.number()),
      ids: z.array(z.string()).openapi({ description: "Ids involved (codes, evidence ids)." }),
    }).strict(),
  ).openapi({ description: "Numbers and ids only: no text." }),
}).strict().openapi("ReportTrace");

const Metric = z.object({
  value: z.number().min(0).max(1),
  method: z.string().min(1).openapi({ description: "Name of the documented formula." }),
  inputs: z.record(z.string(), z.number()).openapi({ description: "The formula's inputs." }),
}).strict();

const Code = z.string().min(1).max(96).regex(CODE_PATTERN);

export const PassportConflict = z.object({
  code: Code,
  summary: z.string().min(1).max(500),
  evidence_reference_ids: z.array(z.string()).min(REPORT_BOUNDS.conflict_references_min)
    .max(REPORT_BOUNDS.conflict_references_max),
}).strict().openapi("PassportConflict");

export const DecisionPassportV1 = z.object({
  decision_id: z.string().min(3).max(128).regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/),
  type: z.literal("customer_grounded_role_intelligence"),
  status: z.enum(["completed", "review_required", "abstained"]),
  summary: z.string().min(1).max(REPORT_BOUNDS.passport_summary),
  abstention: z.object({
    status: z.enum(["not_abstained", "abstained"]),
    reason: z.string().min(1).max(500).nullable(),
  }).strict(),
  assessment: z.object({
    confidence: Metric,
    trust_score: Metric,
    evidence_sufficiency: z.object({
      status: z.enum(["sufficient", "limited", "insufficient"]),
      supported_statements: z.number().int().min(0),
      specific_terms_supported: z.number().int().min(0),
      sources: z.number().int().min(0),
      chunks_cited: z.number().int().min(0),
    }).strict(),
    limitations: z.array(z.string().min(1).max(500)).max(REPORT_BOUNDS.limitations),
  }).strict(),
  conflicts: z.array(PassportConflict),
  coverage: z.object({
    status: z.enum(["measured", "limited", "not_assessed", "unavailable", "not_applicable"]),
    ratio: z.number().min(0).max(1).nullable(),
    basis: z.string().min(1).max(96).regex(CODE_PATTERN).nullable(),
    reason: z.string().min(1).max(500).nullable(),
  }).strict(),
  evidence: z.object({
    references: z.array(EvidenceReference).max(REPORT_BOUNDS.evidence_references),
  }).strict(),
}).strict().openapi("DecisionPassportV1");

export const RoleReportResponse = z.object({
  report: RoleReport,
  draft: ReportDraft,
  trace_id: z.string(),
  trace: ReportTrace,
  evidence_references: z.array(EvidenceReference).max(REPORT_BOUNDS.evidence_references),
  source_references: z.array(SourceReference),
  artifact_references: z.array(ArtifactReference),
  evidence_snapshots: z.array(EvidenceSnapshot),
  uncertainty_signals: z.array(z.string()).openapi({
    description: "Stable codes of what makes the report uncertain (e.g. single_source).",
  }),
  review_flags: z.array(z.string()).openapi({
    description: "Stable codes of what a reviewer must check (e.g. conflict codes).",
  }),
  passport: DecisionPassportV1.nullable(),
}).strict().openapi("RoleReportResponse");

export type RoleReportResponseBody = z.infer<typeof RoleReportResponse>;
export type DecisionPassport = z.infer<typeof DecisionPassportV1>;
export type Statement = z.infer<typeof ReportStatement>;
export type EvidenceRef = z.infer<typeof EvidenceReference>;
