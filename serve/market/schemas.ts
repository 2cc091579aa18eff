/** Request and response schemas of the market routes (spec 4.3, records 2.8). */
import { z } from "@hono/zod-openapi";
import { TERM_TYPES } from "../../build/market/extract.ts";

const Limit = z.coerce.number().int().min(1).max(100).default(20).openapi({
  type: "integer",
  minimum: 1,
  maximum: 100,
  default: 20,
  description: "How many rows to return, 1-100.",
});

/** Query of GET /market/top. */
export const TopQuery = z.object({
  type: z.enum(TERM_TYPES).openapi({
    description: "Term type. `technology` covers software-oriented terms (O*NET Technology " +
      "Skills examples); the others are O*NET content-model elements.",
  }),
  scope: z.enum(["active", "historical"]).default("active").openapi({
    description: "`active`: jobs with a posting in the 30 days ending at the as-of date and " +
      "not expired by validThrough. `historical`: every job up to the as-of date, undated ones " +
      "included.",
  }),
  country: z.string().trim().max(60).optional().openapi({
    description: "ISO 3166-1 alpha-2 code (or alpha-3, or an English country name); omitted " +
      "or empty means all countries. A value that names no country is 422 `country_unknown`.",
    example: "US",
  }),
  limit: Limit,
});

/** Query of the trending routes. */
export const TrendingQuery = z.object({ limit: Limit });

const Window = z.object({
  start: z.string().nullable().openapi({ description: "First day in the window (inclusive)." }),
  end: z.string().openapi({ description: "Last day in the window (inclusive): the as-of date." }),
  as_of: z.string(),
  days: z.number().int().nullable().openapi({
    description: "Window length; null for the historical scope.",
  }),
}).openapi("MarketWindow");

/** What every market answer says about its numbers (additive to spec 2.8). */
const Basis = {
  unit: z.literal("distinct_jobs").openapi({
    description: "Counts are distinct jobs after deduplication, never raw postings.",
  }),
  window: Window,
  jobs_in_scope: z.number().int().openapi({
    description: "Distinct jobs in the scope (and country): the denominator of every percentage.",
  }),
  postings_in_scope: z.number().int().openapi({
    description: "Postings behind those jobs before deduplication.",
  }),
  dedup_rule_version: z.string().openapi({ example: "dedup-v1" }),
  dedup_rule: z.string(),
  artifact_version: z.string(),
  taxonomy_version: z.string(),
  note: z.string().openapi({
    description: "Counts and percentages are scoped, directional signals from the feeds the " +
      "artifact was built from, not universal totals.",
  }),
};

const TermRow = z.object({
  term_type: z.enum(TERM_TYPES),
  term_name: z.string(),
  job_count: z.number().int().openapi({ description: "Distinct jobs that mention the term." }),
  percentage: z.number().openapi({
    description: "job_count / jobs_in_scope x 100, rounded to 2 decimals (scale 0-100).",
  }),
}).openapi("MarketTerm");

/** GET /market/top. */
export const TopResponse = z.object({
  scope: z.enum(["active", "historical"]),
  country: z.string().nullable().openapi({ description: "ISO alpha-2; null when unfiltered." }),
  terms: z.array(TermRow),
  ...Basis,
}).openapi("MarketTopResponse");

const trendRow = (name: "skill_name" | "technology_name") =>
  z.object({
    [name]: z.string(),
    current_count: z.number().int().openapi({
      description: "Distinct jobs with a posting in the current 30-day window.",
    }),
    previous_count: z.number().int().openapi({
      description: "Distinct jobs with a posting in the previous 30-day window.",
    }),
    growth_rate: z.number().openapi({
      description: "(current - previous) / previous; 1.0 when previous is 0 and current is not.",
    }),
  });

const TrendingBasis = {
  current_window: Window,
  previous_window: Window,
  min_jobs: z.number().int().openapi({
    description: "A term is listed when current_count + previous_count reaches this.",
  }),
  ...Basis,
};

/** GET /market/skills/trending. */
export const TrendingSkillsResponse = z.object({
  skills: z.array(trendRow("skill_name").openapi("TrendingSkill")),
  ...TrendingBasis,
}).openapi("TrendingSkillsResponse");

/** GET /market/technologies/trending. */
export const TrendingTechnologiesResponse = z.object({
  technologies: z.array(trendRow("technology_name").openapi("TrendingTechnology")),
  ...TrendingBasis,
}).openapi("TrendingTechnologiesResponse");

const RemoteRow = z.object({
  country_code: z.string(),
  remote_rate: z.number().openapi({
    description: "remote_jobs / total_jobs, a fraction 0-1 rounded to 4 decimals.",
  }),
  remote_jobs: z.number().int(),
  total_jobs: z.number().int(),
  hybrid_jobs: z.number().int(),
  remote_or_hybrid_rate: z.number().openapi({
    description: "(remote_jobs + hybrid_jobs) / total_jobs: comparable to Indeed Hiring Lab's " +
      "remote/hybrid share.",
  }),
  small_sample: z.boolean().openapi({ description: "Fewer than 30 distinct jobs." }),
}).openapi("RemoteRateRow");

/** GET /market/remote-rate. */
export const RemoteRateResponse = z.object({
  scope: z.literal("active"),
  remote_rate: z.array(RemoteRow),
  ...Basis,
}).openapi("RemoteRateResponse");

/** GET /market/overview. */
export const OverviewResponse = z.object({
  scope: z.literal("active"),
  top_skills: z.array(z.object({
    skill_name: z.string(),
    job_count: z.number().int(),
    percentage: z.number(),
  })),
  top_technologies: z.array(z.object({
    technology_name: z.string(),
    job_count: z.number().int(),
    percentage: z.number(),
  })),
  remote_rate: z.array(RemoteRow),
  ...Basis,
}).openapi("MarketOverviewResponse");
