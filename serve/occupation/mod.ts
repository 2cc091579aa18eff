/**
 * Occupation intelligence routes served from the taxonomy artifact. This file holds the
 * summary (spec 2.6) and the profile (2.7); both take a runtime key. A malformed code is 422,
 * a well-formed one the served release does not have is 404.
 */
import { createRoute } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { type AppEnv, createRouter, jsonResponse } from "../http/router.ts";
import { ApiError, problemResponses } from "../http/errors.ts";
import type { ArtifactRegistry, LoadedArtifact } from "../stores/artifacts.ts";
import type { TaxonomyData } from "./artifact.ts";
import { OccupationProfile, OccupationSummary, OnetCodeParam } from "./schemas.ts";
import { answersOf, profileOf, startFill, summaryOf } from "./answers.ts";

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

function occupationOr404(taxonomy: TaxonomyData, code: string) {
  const occupation = taxonomy.occupations.get(code);
  if (!occupation) {
    throw new ApiError("not_found", `O*NET ${taxonomy.release} has no occupation with this code`);
  }
  return occupation;
}

/** The version's cached body of a read route (404 first when the release lacks the code). */
async function answer(
  c: Context<AppEnv>,
  artifacts: ArtifactRegistry,
  data: TaxonomyData,
  code: string,
  [key, build]: readonly [string, () => Promise<unknown>],
) {
  occupationOr404(data, code);
  const cache = answersOf(data);
  // A failed fill (the version closed under it) only means misses keep reading their code.
  if (!cache.fill) startFill(artifacts, data).catch(() => {});
  const body = await cache.get(key, build);
  return c.body(body, 200, JSON_TYPE);
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
      withTaxonomy(artifacts, ({ data, connection }) => {
        const { onet_code } = c.req.valid("param");
        return answer(c, artifacts, data, onet_code, summaryOf(connection, data, onet_code));
      }) as never,
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
      withTaxonomy(artifacts, ({ data, connection }) => {
        const { onet_code } = c.req.valid("param");
        return answer(c, artifacts, data, onet_code, profileOf(connection, data, onet_code));
      }) as never,
  );
  return router;
}
