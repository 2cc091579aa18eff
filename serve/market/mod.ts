/**
 * Market intelligence routes (spec 4.3, records 2.8), answered from the market artifact's
 * precomputed tables in memory. Every answer names its unit (distinct jobs), window, the
 * number of jobs in scope, the dedup rule and the artifact version: the numbers are scoped,
 * directional signals (spec rule 1.5), never universal totals. Runtime key required.
 */
import { createRoute } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { type AppEnv, createRouter, jsonResponse } from "../http/router.ts";
import { ApiError, problemResponses } from "../http/errors.ts";
import type { ArtifactRegistry } from "../stores/artifacts.ts";
import { normalizeCountry } from "../../build/market/country.ts";
import { MARKET } from "../../build/market/pipeline.ts";
import type { MarketData, ScopeTotal } from "./artifact.ts";
import {
  OverviewResponse,
  RemoteRateResponse,
  TopQuery,
  TopResponse,
  TrendingQuery,
  TrendingSkillsResponse,
  TrendingTechnologiesResponse,
} from "./schemas.ts";

/** Top rows the overview lists per term type. */
export const OVERVIEW_TOP = 10;
/** Below this many distinct jobs a country's remote rate is flagged as a small sample. */
export const SMALL_SAMPLE = 30;
const NOTE = "Counts and percentages are scoped, directional signals from the posting feeds " +
  "this artifact was built from (distinct jobs after deduplication), not universal totals.";

function shiftDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Runs fn on the market version this request leases; 503 naming the artifact when none. */
function withMarket<R>(artifacts: ArtifactRegistry, fn: (data: MarketData) => R): R {
  const lease = artifacts.acquire<MarketData>(MARKET);
  if (!lease) {
    throw new ApiError(
      "not_ready",
      "no market artifact is loaded: build one with `deno task build --postings <feed>`",
      { missing: [MARKET] },
    );
  }
  try {
    return fn(lease.artifact.data);
  } finally {
    lease.release();
  }
}

const EMPTY: ScopeTotal = { jobs: 0, remote_jobs: 0, hybrid_jobs: 0, postings: 0 };

/** Serialised answers per version: the same query on the same version is the same bytes. */
const answers = new WeakMap<MarketData, Map<string, string>>();
const MAX_ANSWERS = 1_000; // a body is at most about 10 KB (100 terms): 10 MB per version

/** Answers from the version's cache of serialised bodies, building the body on a miss. */
function answer(c: Context<AppEnv>, data: MarketData, key: string, build: () => unknown) {
  let cache = answers.get(data);
  if (!cache) answers.set(data, cache = new Map());
  let text = cache.get(key);
  if (text === undefined) {
    text = JSON.stringify(build());
    if (cache.size >= MAX_ANSWERS) cache.clear(); // bounded: at most MAX_ANSWERS bodies
    cache.set(key, text);
  }
  return c.body(text, 200, { "content-type": "application/json" }) as never;
}

function basis(data: MarketData, scope: "active" | "historical", country: string) {
  const total = data.totals.get(`${scope}|${country}`) ?? EMPTY;
  const asOf = data.details.as_of;
  const days = data.details.window_days;
  return {
    unit: "distinct_jobs" as const,
    window: scope === "active"
      ? { start: shiftDays(asOf, 1 - days), end: asOf, as_of: asOf, days }
      : { start: data.earliest, end: asOf, as_of: asOf, days: null },
    jobs_in_scope: total.jobs,
    postings_in_scope: total.postings,
    dedup_rule_version: data.details.dedup_rule.version,
    dedup_rule: data.details.dedup_rule.description,
    artifact_version: data.version,
    taxonomy_version: data.details.taxonomy.version,
    note: NOTE,
  };
}

function remoteRows(data: MarketData) {
  return data.activeCountries.map((country) => {
    const t = data.totals.get(`active|${country}`)!;
    return {
      country_code: country,
      remote_rate: Math.round((t.remote_jobs / t.jobs) * 10000) / 10000,
      remote_jobs: t.remote_jobs,
      total_jobs: t.jobs,
      hybrid_jobs: t.hybrid_jobs,
      remote_or_hybrid_rate: Math.round(((t.remote_jobs + t.hybrid_jobs) / t.jobs) * 10000) /
        10000,
      small_sample: t.jobs < SMALL_SAMPLE,
    };
  });
}

function trendingBasis(data: MarketData) {
  const asOf = data.details.as_of;
  const days = data.details.window_days;
  return {
    current_window: { start: shiftDays(asOf, 1 - days), end: asOf, as_of: asOf, days },
    previous_window: {
      start: shiftDays(asOf, 1 - 2 * days),
      end: shiftDays(asOf, -days),
      as_of: asOf,
      days,
    },
    min_jobs: data.details.trending_min_jobs,
    ...basis(data, "active", ""),
  };
}

const common = {
  method: "get" as const,
  tags: ["Market"],
  security: [{ runtimeKey: [] }],
};

/** The market routes. */
export function marketRoutes(artifacts: ArtifactRegistry, runtime: MiddlewareHandler<AppEnv>) {
  const router = createRouter();

  router.openapi(
    createRoute({
      ...common,
      middleware: runtime,
      path: "/api/v1/market/top",
      summary: "Most demanded terms of a type",
      description: "Terms of one type by the number of distinct jobs that mention them, in the " +
        "active (last 30 days to the as-of date) or historical scope, for all countries or one. " +
        "Sorted by job_count descending, then name. An unknown country is 422; a known country " +
        "with no jobs answers an empty list with jobs_in_scope 0.",
      request: { query: TopQuery },
      responses: {
        200: jsonResponse(TopResponse, "The top terms."),
        ...problemResponses(401, 403, 422, 429, 503),
      },
    }),
    (c) => {
      const query = c.req.valid("query");
      let country = "";
      if (query.country !== undefined && query.country !== "") {
        const match = normalizeCountry(query.country);
        if (!match || !["alpha2", "alpha3", "name", "alias"].includes(match.rule)) {
          throw new ApiError("validation_failed", "1 field(s) failed validation", {
            errors: [{
              loc: ["query", "country"],
              msg: "must be an ISO 3166-1 alpha-2 or alpha-3 code or an English country name",
              type: "country_unknown",
            }],
          });
        }
        country = match.code;
      }
      return withMarket(
        artifacts,
        (data) =>
          answer(c, data, `top|${query.type}|${query.scope}|${country}|${query.limit}`, () => ({
            scope: query.scope,
            country: country === "" ? null : country,
            terms: (data.terms.get(`${query.scope}|${country}|${query.type}`) ?? [])
              .slice(0, query.limit),
            ...basis(data, query.scope, country),
          })),
      );
    },
  );

  const trending = [
    {
      type: "skill",
      path: "/api/v1/market/skills/trending",
      list: "skills",
      name: "skill_name",
      schema: TrendingSkillsResponse,
      summary: "Trending skills",
      what: "Skills (O*NET skill elements)",
    },
    {
      type: "technology",
      path: "/api/v1/market/technologies/trending",
      list: "technologies",
      name: "technology_name",
      schema: TrendingTechnologiesResponse,
      summary: "Trending technologies",
      what: "Technologies (software-oriented terms)",
    },
  ] as const;
  for (const kind of trending) {
    router.openapi(
      createRoute({
        ...common,
        middleware: runtime,
        path: kind.path,
        summary: kind.summary,
        description: `${kind.what} by growth of distinct jobs between the previous and the ` +
          "current 30-day window ending at the as-of date. Sorted by growth_rate, then " +
          "current_count, descending, then name.",
        request: { query: TrendingQuery },
        responses: {
          200: jsonResponse(kind.schema, `${kind.summary}.`),
          ...problemResponses(401, 403, 422, 429, 503),
        },
      }),
      (c) => {
        const { limit } = c.req.valid("query");
        return withMarket(
          artifacts,
          (data) =>
            answer(c, data, `${kind.type}-trending|${limit}`, () => ({
              [kind.list]: (data.trending.get(kind.type) ?? []).slice(0, limit).map((t) => ({
                [kind.name]: t.term_name,
                current_count: t.current_count,
                previous_count: t.previous_count,
                growth_rate: t.growth_rate,
              })),
              ...trendingBasis(data),
            })),
        );
      },
    );
  }

  router.openapi(
    createRoute({
      ...common,
      middleware: runtime,
      path: "/api/v1/market/overview",
      summary: "Market overview (active scope)",
      description: `The ${OVERVIEW_TOP} most demanded skills and technologies and the remote ` +
        "rate per country, all in the active scope.",
      responses: {
        200: jsonResponse(OverviewResponse, "The overview."),
        ...problemResponses(401, 403, 429, 503),
      },
    }),
    (c) =>
      withMarket(artifacts, (data) => {
        const top = (type: "skill" | "technology") =>
          (data.terms.get(`active||${type}`) ?? []).slice(0, OVERVIEW_TOP);
        return answer(c, data, "overview", () => ({
          scope: "active" as const,
          top_skills: top("skill").map((t) => ({
            skill_name: t.term_name,
            job_count: t.job_count,
            percentage: t.percentage,
          })),
          top_technologies: top("technology").map((t) => ({
            technology_name: t.term_name,
            job_count: t.job_count,
            percentage: t.percentage,
          })),
          remote_rate: remoteRows(data),
          ...basis(data, "active", ""),
        }));
      }),
  );

  router.openapi(
    createRoute({
      ...common,
      middleware: runtime,
      path: "/api/v1/market/remote-rate",
      summary: "Remote rate per country (active scope)",
      description: "Share of distinct active jobs marked remote, per country, most jobs first. " +
        "A job is remote when the feed says so (jobLocationType TELECOMMUTE or a remote " +
        "column) or its title or description offers remote work; hybrid jobs are counted " +
        "apart. Countries with fewer than 30 jobs are flagged small_sample.",
      responses: {
        200: jsonResponse(RemoteRateResponse, "Remote rates."),
        ...problemResponses(401, 403, 429, 503),
      },
    }),
    (c) =>
      withMarket(artifacts, (data) =>
        answer(c, data, "remote-rate", () => ({
          scope: "active" as const,
          remote_rate: remoteRows(data),
          ...basis(data, "active", ""),
        }))),
  );
  return router;
}
