/**
 * Occupation intelligence routes served from the taxonomy artifact. This file holds the
 * summary (spec 2.6) and the profile (2.7); both take a runtime key. A malformed code is 422,
 * a well-formed one the served release does not have is 404.
 */
import { createRoute } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { type AppEnv, createRouter, jsonResponse } from "../http/router.ts";
import { ApiError, problemResponses } from "../http/errors.ts";
import type { ArtifactRegistry, LoadedArtifact } from "../stores/artifacts.ts";
import type { TaxonomyData } from "./artifact.ts";
import { OccupationProfile, OccupationSummary, OnetCodeParam } from "./schemas.ts";

const JSON_TYPE = { "content-type": "application/json" };

/** Runs fn on the taxonomy version this request leases; 503 when none is loaded. */
export async function withTaxonomy<R>(
  artifacts: ArtifactRegistry,
  fn: (artifact: LoadedArtifact<TaxonomyData>) => Promise<R> | R,
): Promise<R> {
  const result = await artifacts.use<TaxonomyData, { value: R }>("taxonomy", async (artifact) => ({
    value: await fn(artifact),
  }));
  if (!result) throw new ApiError("not_ready", "no taxonomy artifact is loaded");
  return result.value;
}

/** A version's body of a read route for a code; 404 when the release lacks the code. */
function answerOr404(taxonomy: TaxonomyData, code: string, route: "summary" | "profile") {
  const body = taxonomy.answers[route](code);
  if (!body) {
    throw new ApiError("not_found", `O*NET ${taxonomy.release} has no occupation with this code`);
  }
  return body;
}

/** The occupation routes. */
export function occupationRoutes(artifacts: ArtifactRegistry, runtime: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  const common = {
    method: "get" as const,
    tags: ["Occupation"],
    security: [{ runtimeKey: [] }],
    middleware: runtime,
    request: { params: OnetCodeParam },
  };

  router.openapi(
    createRoute({
      ...common,
      path: "/api/v1/occupation/{onet_code}",
      summary: "Occupation summary",
      description: "Title and the ten most important skills (importance 1-5, level 0-7).",
      responses: {
        200: jsonResponse(OccupationSummary, "The occupation."),
        ...problemResponses(401, 403, 404, 422, 429, 503),
      },
    }),
    (c) =>
      withTaxonomy(
        artifacts,
        ({ data }) =>
          c.body(answerOr404(data, c.req.valid("param").onet_code, "summary"), 200, JSON_TYPE),
      ) as never,
  );

  router.openapi(
    createRoute({
      ...common,
      path: "/api/v1/occupation/profile/{onet_code}",
      summary: "Occupation profile",
      description: "Description, every rated skill, technologies with hot and in-demand " +
        "flags, task statements and related occupations with their O*NET tier.",
      responses: {
        200: jsonResponse(OccupationProfile, "The profile."),
        ...problemResponses(401, 403, 404, 422, 429, 503),
      },
    }),
    (c) =>
      withTaxonomy(
        artifacts,
        ({ data }) =>
          c.body(answerOr404(data, c.req.valid("param").onet_code, "profile"), 200, JSON_TYPE),
      ) as never,
  );
  return router;
}
