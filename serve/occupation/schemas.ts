/** Schemas of the occupation routes. */
import { z } from "@hono/zod-openapi";

/** An O*NET-SOC code path parameter: `NN-NNNN.NN`. */
export const OnetCodeParam = z.object({
  onet_code: z.string().regex(/^\d{2}-\d{4}\.\d{2}$/, "Must be an O*NET-SOC code like 29-1141.00")
    .openapi({ param: { name: "onet_code", in: "path" }, example: "29-1141.00" }),
});

const Skill = z.object({
  skill_name: z.string(),
  importance: z.number().openapi({ description: "O*NET importance, 1-5." }),
  level: z.number().nullable().openapi({ description: "O*NET level, 0-7." }),
});

export const OccupationSummary = z.object({
  onet_code: z.string(),
  title: z.string(),
  top_skills: z.array(Skill).openapi({ description: "Up to 10 skills, most important first." }),
  taxonomy_version: z.string(),
}).openapi("OccupationSummary");

export const OccupationProfile = z.object({
  occupation: z.object({
    onet_code: z.string(),
    title: z.string(),
    description: z.string().nullable(),
  }),
  skills: z.array(z.object({
    name: z.string(),
    importance: z.number(),
    level: z.number().nullable(),
  })).openapi({ description: "Every rated skill, most important first." }),
  technologies: z.array(z.object({
    name: z.string(),
    category: z.string().nullable().openapi({
      description: "Technology category: the UNSPSC commodity title up to O*NET 30.2, the " +
        "software category (content-model element name) from 30.3.",
    }),
    is_hot: z.boolean(),
    is_in_demand: z.boolean(),
  })).openapi({ description: "Software and technology examples; hot and in-demand first." }),
  tasks: z.array(z.string()).openapi({ description: "Task statements, core tasks first." }),
  related_occupations: z.array(z.object({
    onet_code: z.string(),
    title: z.string(),
    relatedness_tier: z.string().openapi({
      description: "O*NET tier: Primary-Short, Primary-Long or Supplemental.",
    }),
    rank: z.number().int().openapi({ description: "O*NET relatedness index, 1 = closest." }),
  })),
  taxonomy_version: z.string(),
  attribution: z.string(),
}).openapi("OccupationProfile");

/** Bounds of the free-text inputs (documented in the OpenAPI document and the README). */
export const TITLE_MAX = 300;
export const DESCRIPTION_MAX = 20_000;

const Title = z.string().min(1).max(TITLE_MAX).openapi({
  description: `Job title as posted, 1-${TITLE_MAX} characters. Levels, requisition ids, ` +
    "locations, shifts and common abbreviations (RN, CDL, Sr, Mgr…) are handled.",
  example: "Sr. Registered Nurse (RN) - ICU Night Shift, Dallas, TX",
});
const Description = z.string().max(DESCRIPTION_MAX).openapi({
  description: `Job description, at most ${DESCRIPTION_MAX} characters. Markup, URLs, e-mail ` +
    "addresses and phone numbers are stripped; it only sharpens the order the title gives.",
});

export const CandidatesRequest = z.object({
  title: Title,
  description: Description.optional(),
  limit: z.number().int().min(1).max(10).default(5).openapi({ description: "1-10, default 5." }),
}).openapi("CandidatesRequest");

const MatchReason = z.enum([
  "normalized_primary_title_match",
  "complete_occupational_phrase_match",
  "primary_title_token_match",
  "occupational_context_match",
  "role_head_match",
  "description_match",
  "task_match",
  "vector_candidate_expansion",
]);

export const CandidatesResponse = z.object({
  query: z.object({ title: z.string(), description_used: z.boolean() }),
  candidates: z.array(z.object({
    rank: z.number().int(),
    onet_code: z.string(),
    title: z.string(),
    relevance_score: z.number().openapi({
      description: "Orders this list only; not a probability or a correctness confidence.",
    }),
    match_reasons: z.array(MatchReason),
    evidence: z.object({
      matched_title: z.string().openapi({
        description: "The occupation's title that matched best.",
      }),
      title_match_type: z.enum(["primary", "alternate", "short", "reported"]),
      query_role_head: z.string(),
      candidate_role_head: z.string(),
      role_head_agreement: z.boolean(),
      description_term_matches: z.number().int(),
      task_term_matches: z.number().int(),
    }),
  })),
  decision: z.literal("candidates_only"),
  mapping_selected: z.literal(false),
  taxonomy_version: z.string(),
  policy: z.string().openapi({
    description: "svc-onet-hybrid-shortlist-<release>-v1 with the semantic channel, " +
      "svc-onet-candidate-retrieval-<release>-v1 for the exact lexical fallback.",
  }),
  score_interpretation: z.literal("ordering_only_not_probability"),
  attribution: z.string(),
}).openapi("CandidatesResponse");

export const JobRequest = z.object({
  title: Title,
  description: Description.optional(),
  debug: z.boolean().default(false).openapi({
    description: "Adds `confidence_debug` and `decision` to the response.",
  }),
}).openapi("JobRequest");

const Level = z.enum(["high", "medium", "low"]);

export const ConfidenceDebug = z.object({
  entropy: z.number().openapi({ description: "Normalised entropy of the top-10 score shares." }),
  margin: z.number().openapi({ description: "Top relevance score minus the second." }),
  base_confidence: z.number().openapi({
    description: "Uncalibrated top share (= confidence_raw).",
  }),
  adjusted_confidence: z.number().openapi({ description: "Calibrated (= confidence)." }),
}).openapi("ConfidenceDebug");

export const DecisionBlock = z.object({
  decision: z.enum(["ACCEPT", "REVIEW", "REJECT"]),
  decision_score: z.number(),
  reason: z.string(),
  applied_rule: z.string(),
}).openapi("DecisionBlock");

const ConfidenceFields = {
  confidence: z.number().openapi({
    description: "Calibrated probability that the top occupation is right at the O*NET-SOC " +
      "level (logistic regression fitted at build time on held-out titles).",
  }),
  confidence_raw: z.number().openapi({
    description: "Uncalibrated: the top result's softmax share of the top-10 scores.",
  }),
  confidence_band: Level.openapi({
    description: "high >= 0.70, medium >= 0.40, low below, on calibrated confidence.",
  }),
  domain_grounding: Level.openapi({
    description: "high: known role word, >= 80% of words known and no description conflict; " +
      "medium: known role word or >= 50% known words; low otherwise.",
  }),
  domain_grounding_explanation: z.string(),
  confidence_explanation: z.string(),
};

const DebugFields = {
  confidence_debug: ConfidenceDebug.optional().openapi({ description: "Only with debug: true." }),
  decision: DecisionBlock.optional().openapi({ description: "Only with debug: true." }),
};

const RelatedRecord = z.object({
  onet_code: z.string(),
  title: z.string(),
  relatedness_tier: z.string(),
  rank: z.number().int(),
});

export const AnalysisResponse = z.object({
  results: z.array(z.object({
    onet_code: z.string(),
    title: z.string(),
    confidence: z.number().openapi({
      description: "The top result's equals the top-level (calibrated) confidence; each other " +
        "result's is the top one's per unit of score share times its own share, scaled down " +
        "when the list would pass 1. Never higher than a result ranked above it.",
    }),
    domain_grounding: Level,
    domain_grounding_explanation: z.string(),
    matching_skills: z.array(z.string()).openapi({
      description: "The occupation's technologies and skills whose words the input contains.",
    }),
    confidence_explanation: z.string(),
    related_occupations: z.array(RelatedRecord).openapi({ description: "Up to 5, closest first." }),
  })).openapi({ description: "Up to 5, best first; empty when the input grounds nothing." }),
  ...ConfidenceFields,
  calibration_method: z.literal("logistic_regression"),
  taxonomy_version: z.string(),
  ...DebugFields,
}).openapi("JobAnalysis");

export const ClassificationResponse = z.object({
  occupation: z.object({ onet_code: z.string(), title: z.string() }),
  ...ConfidenceFields,
  calibration_method: z.literal("logistic_regression"),
  taxonomy_version: z.string(),
  ...DebugFields,
}).openapi("JobClassification");
