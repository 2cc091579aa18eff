/** Liveness and readiness probes; no credentials, never cached. */
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../http/router.ts";
import { ApiError, problemResponses } from "../http/errors.ts";
import type { Database } from "../stores/postgres.ts";
import type { ArtifactRegistry } from "../stores/artifacts.ts";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/router.ts";

/** What the health routes need. */
export interface HealthDeps {
  database: Database;
  artifacts: ArtifactRegistry;
  readyDbTimeoutMs: number;
}

const ArtifactCheck = z
  .object({
    name: z.string(),
    required: z.boolean(),
    state: z.enum(["loaded", "missing", "failed"]),
    version: z.string().nullable().openapi({ description: "Artifact version being served." }),
    release: z.string().nullable().openapi({ description: "Source release, e.g. O*NET 29.3." }),
    problem: z.string().nullable().openapi({
      description: "Why the last load or reload was refused; the previous version keeps serving.",
    }),
  })
  .openapi("ArtifactCheck");

const Ready = z
  .object({
    status: z.literal("ready"),
    checks: z.object({ database: z.literal("ok"), artifacts: z.array(ArtifactCheck) }),
  })
  .openapi("Readiness");

const live = createRoute({
  method: "get",
  path: "/health/live",
  security: [], // probes take no credential
  tags: ["Health"],
  summary: "Liveness",
  description: "200 while the process runs. No dependencies are checked.",
  responses: {
    200: {
      description: "The process is alive.",
      content: { "application/json": { schema: z.object({ status: z.literal("live") }) } },
    },
  },
});

const ready = createRoute({
  method: "get",
  path: "/health/ready",
  security: [], // probes take no credential
  tags: ["Health"],
  summary: "Readiness",
  description: "200 only when the database answers and every required artifact is loaded; " +
    "otherwise 503 with `reasons` (problem+json, code `not_ready`).",
  responses: {
    200: { description: "Ready to serve.", content: { "application/json": { schema: Ready } } },
    ...problemResponses(503),
  },
});

/** The health router. */
export function healthRoutes(deps: HealthDeps) {
  const router = createRouter();
  router.openapi(live, (c) => {
    c.header("cache-control", "no-store");
    return c.json({ status: "live" as const }, 200);
  });
  router.openapi(ready, async (c) => {
    const reasons: string[] = [];
    let database: "ok" | "unavailable" = "ok";
    try {
      await deps.database.ping(deps.readyDbTimeoutMs);
    } catch {
      database = "unavailable";
      reasons.push("database is not answering");
    }
    const artifacts = deps.artifacts.status();
    for (const a of artifacts) {
      if (a.required && a.state !== "loaded") {
        reasons.push(`${a.name} artifact is not loaded: ${a.problem ?? a.state}`);
      }
    }
    if (reasons.length > 0) {
      throw new ApiError("not_ready", reasons.join("; "), {
        reasons,
        checks: { database, artifacts },
      });
    }
    c.header("cache-control", "no-store");
    return c.json(
      { status: "ready" as const, checks: { database: "ok" as const, artifacts } },
      200,
    );
  });
  return router;
}

const LegacyHealth = z
  .object({
    status: z.literal("ok"),
    api_version: z.string(),
    taxonomy_version: z.string().nullable().openapi({
      description: "O*NET release of the taxonomy artifact being served.",
    }),
    artifacts: z.array(z.object({ name: z.string(), version: z.string().nullable() })),
    key: z.object({
      name: z.string(),
      contract_id: z.number().int(),
      plan: z.string(),
      entitlements: z.array(z.string()),
    }).openapi({ description: "The runtime key this request was made with." }),
  })
  .openapi("LegacyHealth");

/** GET /api/v1/health: the legacy health object, for runtime keys (checks key and limits). */
export function runtimeHealthRoutes(
  artifacts: ArtifactRegistry,
  runtime: MiddlewareHandler<AppEnv>,
  apiVersion: string,
) {
  const router = createRouter();
  router.openapi(
    createRoute({
      method: "get",
      path: "/api/v1/health",
      tags: ["Health"],
      summary: "Legacy health (runtime key)",
      description: "Confirms the runtime key, its contract and limits work end to end, and " +
        "names the data being served. Metered and rate-limited like every runtime route.",
      security: [{ runtimeKey: [] }],
      middleware: runtime,
      responses: {
        200: { description: "Healthy.", content: { "application/json": { schema: LegacyHealth } } },
        ...problemResponses(401, 403, 429),
      },
    }),
    (c) => {
      const principal = c.get("runtime");
      const status = artifacts.status();
      const taxonomy = status.find((a) => a.name === "taxonomy");
      return c.json({
        status: "ok" as const,
        api_version: apiVersion,
        taxonomy_version: taxonomy?.release ?? null,
        artifacts: status.map((a) => ({ name: a.name, version: a.version })),
        key: {
          name: principal.keyName,
          contract_id: Number(principal.contract.id),
          plan: principal.contract.plan,
          entitlements: [...principal.entitlements].sort(),
        },
      }, 200);
    },
  );
  return router;
}
