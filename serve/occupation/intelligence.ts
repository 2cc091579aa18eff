/**
 * Candidates, analyze and classify (spec 4.1, shapes 2.2-2.5), ranked in memory by the engine
 * the taxonomy version carries. Rankings are cached per version (LRU, keyed by the exact input):
 * identical requests give byte-identical responses either way.
 */
import { createRoute } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { type AppEnv, createRouter, jsonBody, jsonResponse } from "../http/router.ts";
import { ApiError, problemResponses } from "../http/errors.ts";
import { withTaxonomy } from "./mod.ts";
import type { ArtifactRegistry } from "../stores/artifacts.ts";
import type { TaxonomyData } from "./artifact.ts";
import { indexTerms } from "../text/normalize.ts";
import type { Ranking } from "./engine/index.ts";
import type { RankAnswer } from "./ranker.ts";
import { assess, type Assessment, percent } from "./engine/confidence.ts";
import { type Channel, retrievalPolicy } from "./engine/calibrate.ts";
import {
  AnalysisResponse,
  CandidatesRequest,
  CandidatesResponse,
  ClassificationResponse,
  JobRequest,
} from "./schemas.ts";

/** How the occupation engine runs in this server. */
export interface EngineSettings {
  /** Use the semantic channel when the artifact has vectors (OCCUPATION_SEMANTIC). */
  semantic: boolean;
  /** Rankings kept per taxonomy version (OCCUPATION_CACHE_SIZE); 0 disables the cache. */
  cacheSize: number;
}

/** Results analyze returns. */
export const ANALYZE_RESULTS = 5;
const RANK_DEPTH = 10;
/** Requests whose description is longer than this are ranked every time. */
const CACHED_DESCRIPTION_MAX = 1_000;

class RankingCache {
  readonly #entries = new Map<string, RankAnswer>();
  constructor(readonly size: number) {}
  get(key: string): RankAnswer | undefined {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }
  set(key: string, value: RankAnswer): void {
    if (this.size === 0) return;
    this.#entries.set(key, value);
    if (this.#entries.size > this.size) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }
}

/** The occupation engine's answers for one request, on the leased taxonomy version. */
function engineOf(
  data: TaxonomyData,
  settings: EngineSettings,
  caches: WeakMap<object, RankingCache>,
) {
  const channel: Channel = settings.semantic && data.engine.hasVectors ? "hybrid" : "lexical";
  let cache = caches.get(data);
  if (!cache) caches.set(data, cache = new RankingCache(settings.cacheSize));
  const calibration = data.calibrations.get(channel) ?? data.calibrations.get("lexical")!;
  return {
    channel,
    policy: retrievalPolicy(channel, data.release),
    /**
     * The ranking of a title (and description); with `skills`, also the matching skills of the
     * first ANALYZE_RESULTS results (analyze).
     */
    async rank(
      title: string,
      description: string | undefined,
      skills = false,
    ): Promise<RankAnswer> {
      // Long descriptions are not cached: they rarely repeat and would make the cache's memory
      // depend on what clients send (10,000 entries of 20,000 characters).
      const cacheable = cache.size > 0 && (description?.length ?? 0) <= CACHED_DESCRIPTION_MAX;
      const key = cacheable ? JSON.stringify([title, description ?? null]) : "";
      const hit = cacheable ? cache.get(key) : undefined;
      if (hit && (!skills || hit.skills.length > 0 || hit.ranking.results.length === 0)) {
        return hit;
      }
      const answer = await data.engine.rank({
        query: { title, description },
        options: { limit: RANK_DEPTH, semantic: channel === "hybrid" },
        ...(skills
          ? {
            skills: {
              terms: indexTerms(`${title} ${description ?? ""}`),
              count: ANALYZE_RESULTS,
            },
          }
          : {}),
      });
      if (cacheable) cache.set(key, answer);
      return answer;
    },
    assess: (ranking: Ranking) => assess(ranking, calibration),
  };
}

function resultExplanation(rank: number, ranking: Ranking, confidence: number): string {
  const r = ranking.results[rank];
  const how = r.exact
    ? `matches the known title "${r.matchedTitle}"`
    : r.semanticOnly
    ? "is suggested by words with a similar meaning"
    : r.titleMatched
    ? `is closest to the known title "${r.matchedTitle}"`
    : "shares related words with the occupation's titles or duties";
  const head = r.roleHeadAgreement ? `, same role ("${r.candidateRoleHead}")` : "";
  return `Rank ${rank + 1}: the title ${how}${head}; ${
    percent(confidence)
  } probability of being the right occupation.`;
}

function confidenceFields(a: Assessment, debug: boolean) {
  return {
    confidence: a.confidence,
    confidence_raw: a.confidenceRaw,
    confidence_band: a.band,
    domain_grounding: a.grounding,
    domain_grounding_explanation: a.groundingExplanation,
    confidence_explanation: a.explanation,
    calibration_method: "logistic_regression" as const,
    ...(debug ? { confidence_debug: a.debug, decision: a.decision } : {}),
  };
}

/** POST candidates, analyze and classify. */
export function intelligenceRoutes(
  artifacts: ArtifactRegistry,
  runtime: MiddlewareHandler<AppEnv>,
  settings: EngineSettings,
) {
  const router = createRouter();
  const caches = new WeakMap<object, RankingCache>();
  const common = {
    method: "post" as const,
    tags: ["Occupation"],
    security: [{ runtimeKey: [] }],
    middleware: runtime,
  };

  router.openapi(
    createRoute({
      ...common,
      path: "/api/v1/occupation/candidates",
      summary: "Candidate occupations for a title",
      description: "A shortlist only: it never classifies, selects or stores a mapping. " +
        "Nonsense or empty-after-cleaning input gives 200 with an empty list.",
      request: jsonBody(CandidatesRequest),
      responses: {
        200: jsonResponse(CandidatesResponse, "The shortlist."),
        ...problemResponses(401, 403, 415, 422, 429, 503),
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const response = await withTaxonomy(artifacts, async ({ data }) => {
        const engine = engineOf(data, settings, caches);
        const { ranking } = await engine.rank(body.title, body.description);
        return {
          query: { title: body.title, description_used: ranking.descriptionUsed },
          candidates: ranking.results.slice(0, body.limit).map((r, i) => ({
            rank: i + 1,
            onet_code: r.onetCode,
            title: r.title,
            relevance_score: r.score,
            match_reasons: r.reasons,
            evidence: {
              matched_title: r.matchedTitle,
              title_match_type: r.matchedTitleKind,
              query_role_head: ranking.queryRoleHead,
              candidate_role_head: r.candidateRoleHead,
              role_head_agreement: r.roleHeadAgreement,
              description_term_matches: r.descriptionTermMatches,
              task_term_matches: r.taskTermMatches,
            },
          })),
          decision: "candidates_only" as const,
          mapping_selected: false as const,
          taxonomy_version: data.release,
          policy: engine.policy,
          score_interpretation: "ordering_only_not_probability" as const,
          attribution: data.attribution,
        };
      });
      return c.json(response, 200);
    },
  );

  router.openapi(
    createRoute({
      ...common,
      path: "/api/v1/job/analyze",
      summary: "Analyze a job: ranked occupations with calibrated confidence",
      description: "Up to 5 occupations, best first, each with matching skills and related " +
        "occupations. Input that grounds nothing answers 200 with empty results. With " +
        "`debug: true` the response adds `confidence_debug` (ConfidenceDebug) and `decision` " +
        "(DecisionBlock) at the top level.",
      request: jsonBody(JobRequest),
      responses: {
        200: jsonResponse(AnalysisResponse, "The analysis."),
        ...problemResponses(401, 403, 415, 422, 429, 503),
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const response = await withTaxonomy(artifacts, async ({ data }) => {
        const engine = engineOf(data, settings, caches);
        const { ranking, skills } = await engine.rank(body.title, body.description, true);
        const a = engine.assess(ranking);
        return {
          results: ranking.results.slice(0, ANALYZE_RESULTS).map((r, i) => ({
            onet_code: r.onetCode,
            title: r.title,
            confidence: a.resultConfidence[i],
            domain_grounding: a.grounding,
            domain_grounding_explanation: a.groundingExplanation,
            matching_skills: skills[i] ?? [],
            confidence_explanation: resultExplanation(i, ranking, a.resultConfidence[i]),
            related_occupations: (data.related.get(r.onetCode) ?? []).slice(0, 5),
          })),
          ...confidenceFields(a, body.debug),
          taxonomy_version: data.release,
        };
      });
      return c.json(response, 200);
    },
  );

  router.openapi(
    createRoute({
      ...common,
      path: "/api/v1/job/classify",
      summary: "Classify a job: the single best occupation",
      description: "The best occupation with the same confidence semantics as analyze. A " +
        "weak match is still returned, with an honest low band. When the input grounds no " +
        "occupation at all the answer is 422 with rule `insufficient_input` on `title`. " +
        "With `debug: true`: `confidence_debug` and `decision` at the top level.",
      request: jsonBody(JobRequest),
      responses: {
        200: jsonResponse(ClassificationResponse, "The classification."),
        ...problemResponses(401, 403, 415, 422, 429, 503),
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const response = await withTaxonomy(artifacts, async ({ data }) => {
        const engine = engineOf(data, settings, caches);
        const { ranking } = await engine.rank(body.title, body.description);
        const top = ranking.results[0];
        if (!top) {
          throw new ApiError("validation_failed", "the input grounds no occupation", {
            errors: [{
              loc: ["body", "title"],
              msg: "No occupation matches this title; give a more specific title or a " +
                "description.",
              type: "insufficient_input",
            }],
          });
        }
        return {
          occupation: { onet_code: top.onetCode, title: top.title },
          ...confidenceFields(engine.assess(ranking), body.debug),
          taxonomy_version: data.release,
        };
      });
      return c.json(response, 200);
    },
  );
  return router;
}
