/** createApp(deps): the whole HTTP service, built from injected dependencies. */
import { OpenAPIHono } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import type { Context } from "hono";
import type { Config } from "./config.ts";
import type { Logger } from "./http/log.ts";
import type { Database } from "./stores/postgres.ts";
import type { ArtifactRegistry } from "./stores/artifacts.ts";
import { ApiError, type ErrorCode, problemResponse } from "./http/errors.ts";
import { accessLog, bodyLimit, requestId, wellFormedJson } from "./http/middleware.ts";
import { type AppEnv, StaticMatchCache } from "./http/router.ts";
import { validationHook } from "./http/validation.ts";
import { healthRoutes, runtimeHealthRoutes } from "./health/mod.ts";
import { API_VERSION, registerDocs } from "./docs/mod.ts";
import { type PlatformContext, platformRoutes, runtimeMiddleware } from "./platform/mod.ts";
import { occupationRoutes } from "./occupation/mod.ts";
import { intelligenceRoutes } from "./occupation/intelligence.ts";
import { marketRoutes } from "./market/mod.ts";
import { workforceRoutes } from "./workforce/mod.ts";
import { groundingRoutes } from "./grounding/mod.ts";
import { consoleRoutes } from "./console/mod.tsx";

/** Everything the app needs; tests pass their own. */
export interface AppDeps {
  config: Pick<
    Config,
    | "MAX_BODY_BYTES"
    | "MAX_UPLOAD_BYTES"
    | "READY_DB_TIMEOUT_MS"
    | "OCCUPATION_SEMANTIC"
    | "OCCUPATION_CACHE_SIZE"
    | "OCCUPATION_CACHE_MB"
  >;
  database: Database;
  artifacts: ArtifactRegistry;
  logger: Logger;
  platform: PlatformContext;
}

/** Allowed methods per route pattern, for telling 405 from 404. */
/**
 * The methods a path allows. A path some route spells out literally (POST
 * /api/v1/occupation/candidates) allows only that route's methods, even where a parameterised
 * route (GET /api/v1/occupation/{onet_code}) would also match it.
 */
function methodIndex(app: OpenAPIHono<AppEnv>) {
  let routes: { pattern: RegExp; method: string; literal: string | null }[] | null = null;
  let literals: Map<string, string[]> | null = null;
  const allowed = (path: string): string[] => {
    routes ??= app.routes
      .filter((r) => r.method !== "ALL" && !r.path.includes("*"))
      .map((r) => ({
        method: r.method,
        literal: r.path.includes(":") ? null : r.path,
        pattern: new RegExp(
          "^" + r.path.replace(/[.+?^$()[\]\\|]/g, "\\$&").replace(/:[^/]+/g, "[^/]+") + "$",
        ),
      }));
    const literal = routes.filter((r) => r.literal === path);
    const matching = literal.length > 0 ? literal : routes.filter((r) => r.pattern.test(path));
    const methods = new Set(matching.map((r) => r.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  };
  return {
    allowed,
    /** The methods of a literal route path, or undefined: one map lookup per request. */
    literal(path: string): string[] | undefined {
      literals ??= new Map(
        app.routes.filter((r) => r.method !== "ALL" && !r.path.includes(":"))
          .map((r) => [r.path, allowed(r.path)]),
      );
      return literals.get(path);
    },
  };
}

const HTTP_CODES: Record<number, ErrorCode> = {
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  400: "bad_request",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
};

/** Builds the Hono app. */
export function createApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: validationHook,
    router: new StaticMatchCache(),
  });
  app.use("*", requestId(), accessLog(deps.logger));
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set("x-content-type-options", "nosniff");
    c.res.headers.set("referrer-policy", "no-referrer");
    if (!c.res.headers.has("cache-control")) c.res.headers.set("cache-control", "no-store");
  });
  app.use("*", bodyLimit(deps.config.MAX_BODY_BYTES, deps.config.MAX_UPLOAD_BYTES));
  app.use("*", wellFormedJson());
  const methodsOf = methodIndex(app);
  const methodNotAllowed = (c: Context<AppEnv>, methods: string[]) =>
    problemResponse(
      c,
      "method_not_allowed",
      `${c.req.method} is not allowed here; allowed: ${methods.join(", ")}`,
      {},
      { allow: methods.join(", ") },
    );
  // A wrong method on a literal path must not fall through to a parameterised route.
  app.use("*", async (c, next) => {
    const methods = methodsOf.literal(c.req.path);
    if (methods && !methods.includes(c.req.method) && c.req.method !== "OPTIONS") {
      return methodNotAllowed(c, methods);
    }
    await next();
  });

  app.route(
    "/",
    healthRoutes({
      database: deps.database,
      artifacts: deps.artifacts,
      readyDbTimeoutMs: deps.config.READY_DB_TIMEOUT_MS,
    }),
  );
  const runtime = runtimeMiddleware(deps.platform);
  app.route("/", platformRoutes(deps.platform));
  app.route("/", runtimeHealthRoutes(deps.artifacts, runtime, API_VERSION));
  app.route(
    "/",
    intelligenceRoutes(deps.artifacts, runtime, {
      semantic: deps.config.OCCUPATION_SEMANTIC,
      cacheSize: deps.config.OCCUPATION_CACHE_SIZE,
      cacheBytes: deps.config.OCCUPATION_CACHE_MB * 1024 * 1024,
    }),
  );
  app.route("/", occupationRoutes(deps.artifacts, runtime));
  app.route("/", marketRoutes(deps.artifacts, runtime));
  app.route(
    "/",
    workforceRoutes({
      artifacts: deps.artifacts,
      runtime,
      db: deps.platform.db,
      cursorKey: deps.platform.keys.cursorKey,
      idempotent: deps.platform.idempotent,
      clock: deps.platform.clock,
    }),
  );
  app.route(
    "/",
    groundingRoutes({
      artifacts: deps.artifacts,
      runtime,
      db: deps.platform.db,
      idempotent: deps.platform.idempotent,
      clock: deps.platform.clock,
    }),
  );
  registerDocs(app);
  // The developer console (HTML pages, not in /openapi.json); it also answers the old
  // /reset-password link with a redirect to its reset page.
  app.route("/", consoleRoutes({ platform: deps.platform }));

  app.notFound((c) => {
    const methods = methodsOf.allowed(c.req.path);
    if (methods.length > 0) return methodNotAllowed(c, methods);
    return problemResponse(c, "not_found", "no route matches this path");
  });

  app.onError((error, c: Context<AppEnv>) => {
    if (error instanceof ApiError) {
      return problemResponse(c, error.code, error.detail, error.extra, error.headers);
    }
    if (error instanceof HTTPException) {
      if (error.status === 400 && /json/i.test(error.message)) {
        return problemResponse(
          c,
          "malformed_json",
          "the request body could not be parsed as JSON",
          {
            errors: [{ loc: ["body"], msg: "Malformed JSON", type: "json_invalid" }],
          },
        );
      }
      const code = HTTP_CODES[error.status];
      if (code === "unsupported_media_type") {
        return problemResponse(c, code, "send the body as application/json");
      }
      if (code) return problemResponse(c, code);
      // Any other client error a library raises stays a client error, never a logged 500.
      if (error.status >= 400 && error.status < 500) return problemResponse(c, "bad_request");
    }
    deps.logger.error("unhandled error", {
      request_id: c.get("requestId"),
      method: c.req.method,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    return problemResponse(
      c,
      "internal_error",
      "an unexpected error occurred; quote the request id (instance) when reporting it",
    );
  });
  return app;
}
