/**
 * Candidates, analyze and classify (spec 4.1, shapes 2.2-2.5), ranked in memory by the engine
 * the taxonomy version carries. The ranker makes the whole JSON body where the index lives (in
 * the ranking worker by default: respond.ts), and bodies are cached per version (LRU, keyed by
 * the route and every field that shapes the body): identical requests give byte-identical
 * responses either way.
 */
import { createRoute } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { type AppEnv, createRouter, jsonBody, jsonResponse } from "../http/router.ts";
import { ApiError, problemResponses } from "../http/errors.ts";
import { withTaxonomy } from "./mod.ts";
import type { ArtifactRegistry } from "../stores/artifacts.ts";
import type { TaxonomyData } from "./artifact.ts";
import type { Answer, AnswerRequest } from "./respond.ts";
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
  /** Answers kept per taxonomy version (OCCUPATION_CACHE_SIZE); 0 disables the cache. */
  cacheSize: number;
  /** What they may hold, keys and bodies (OCCUPATION_CACHE_MB); BODY_CACHE_BYTES if unset. */
  cacheBytes?: number;
}

/** Requests whose description is longer than this are ranked every time. */
const CACHED_DESCRIPTION_MAX = 1_000;
const JSON_TYPE = { "content-type": "application/json" };

/**
 * What the body cache of one version holds at most by default, besides its entry count: the
 * bodies' UTF-8 bytes (outside the JavaScript heap) and their keys' characters. 48 MiB until
 * 2026-11-26, when bodies were strings and the heap grew about twice what the cache held
 * (bench:serve's stream server peaked at 513-523 MiB, 446 with 16 MiB, at the same throughput).
 */
export const BODY_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * The bodies of one version: an LRU bounded by entries (OCCUPATION_CACHE_SIZE) and by bytes, so
 * three routes' bodies (analyze's are about 5.5 KB) cannot take more than BODY_CACHE_BYTES.
 */
export class BodyCache {
  readonly #entries = new Map<string, { answer: Answer; bytes: number }>();
  #bytes = 0;
  constructor(readonly size: number, readonly maxBytes: number = BODY_CACHE_BYTES) {}
  /** Bytes held (keys and bodies). */
  get bytes(): number {
    return this.#bytes;
  }
  get(key: string): Answer | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    return hit.answer;
  }
  set(key: string, answer: Answer): void {
    const bytes = key.length + ("body" in answer ? answer.body.byteLength : 0);
    if (this.size === 0 || bytes > this.maxBytes || this.#entries.has(key)) return;
    this.#entries.set(key, { answer, bytes });
    this.#bytes += bytes;
    for (const [oldest, old] of this.#entries) {
      if (this.#entries.size <= this.size && this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= old.bytes;
    }
  }
}

/**
 * The answer to a request on the leased taxonomy version, from its cache or its ranker. Long
 * descriptions are not cached: they rarely repeat and would make the cache's memory depend on
 * what clients send (10,000 entries of 20,000 characters).
 */
async function answerFor(
  data: TaxonomyData,
  settings: EngineSettings,
  caches: WeakMap<object, BodyCache>,
  request: AnswerRequest,
): Promise<Answer> {
  let cache = caches.get(data);
  if (!cache) {
    caches.set(data, cache = new BodyCache(settings.cacheSize, settings.cacheBytes));
  }
  const cacheable = cache.size > 0 &&
    (request.description?.length ?? 0) <= CACHED_DESCRIPTION_MAX;
  const key = cacheable
    ? JSON.stringify([
      request.route,
      request.title,
      request.description ?? null,
      request.route === "candidates" ? request.limit : request.debug,
    ])
    : "";
  const hit = cacheable ? cache.get(key) : undefined;
  if (hit) return hit;
  const answer = await data.engine.answer(request);
  if (cacheable) cache.set(key, answer);
  return answer;
}

/** The 200 body; classify's "no occupation at all" is 422 insufficient_input. */
function bodyOf(answer: Answer): Uint8Array<ArrayBuffer> {
  if ("body" in answer) return answer.body;
  throw new ApiError("validation_failed", "the input grounds no occupation", {
    errors: [{
      loc: ["body", "title"],
      msg: "No occupation matches this title; give a more specific title or a description.",
      type: "insufficient_input",
    }],
  });
}

/** POST candidates, analyze and classify. */
export function intelligenceRoutes(
  artifacts: ArtifactRegistry,
  runtime: MiddlewareHandler<AppEnv>,
  settings: EngineSettings,
) {
  const router = createRouter();
  const caches = new WeakMap<object, BodyCache>();
  const respond = async (c: Context<AppEnv>, request: AnswerRequest) => {
    const answer = await withTaxonomy(
      artifacts,
      ({ data }) => answerFor(data, settings, caches, request),
    );
    return c.body(bodyOf(answer), 200, JSON_TYPE);
  };
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
    (c) => {
      const body = c.req.valid("json");
      return respond(c, {
        route: "candidates",
        title: body.title,
        description: body.description,
        limit: body.limit,
        semantic: settings.semantic,
      }) as never;
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
    (c) => {
      const body = c.req.valid("json");
      return respond(c, {
        route: "analyze",
        title: body.title,
        description: body.description,
        debug: body.debug,
        semantic: settings.semantic,
      }) as never;
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
    (c) => {
      const body = c.req.valid("json");
      return respond(c, {
        route: "classify",
        title: body.title,
        description: body.description,
        debug: body.debug,
        semantic: settings.semantic,
      }) as never;
    },
  );
  return router;
}
