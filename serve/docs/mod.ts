/** /openapi.json (generated from the route schemas), /docs and the problem-type pages. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/router.ts";
import { ApiError, ERROR_CATALOG, type ErrorCode, problemResponses } from "../http/errors.ts";
import { docsHtml, docsScript } from "./page.ts";
import { assignOperationIds } from "./operation_ids.ts";

/** Interface description version (spec section 9). */
export const API_VERSION = "0.1.0";

const DESCRIPTION = [
  "Occupation and labour-market intelligence API (beta, U.S. scope).",
  "Errors: every error is `application/problem+json` (RFC 9457) with `type`, `title`, " +
  "`status`, `detail`, `instance` (the request id) and a stable `code`. Validation failures " +
  "are 422 with an `errors` array of `{loc, msg, type}` naming the field path and the rule " +
  "broken; submitted values are never echoed. A body that is not valid JSON is also 422 " +
  "(code `malformed_json`). Bodies over the configured limit (1 MiB by default) are 413; " +
  "unknown paths 404; a known path with the wrong method 405 with an `Allow` header; " +
  "unexpected failures 500 carrying only the request id.",
  "Request ids: every response carries `X-Request-Id`. A client may send its own " +
  "(8-128 characters of `A-Z a-z 0-9 . _ : -`); otherwise one is generated.",
  "Caching: API responses are `Cache-Control: no-store` unless a route says otherwise; " +
  "this document and /docs may be cached for five minutes.",
  "Authentication: runtime routes (occupation, market, workforce, grounding, GET /api/v1/health) " +
  "take a runtime API key, `Authorization: Bearer oik_…` (scheme `runtimeKey`); account routes " +
  "take a management token from POST /api/v1/platform/login (scheme `managementToken`, a JWT " +
  "valid 15 minutes). Missing or invalid credentials are 401 with `WWW-Authenticate: Bearer`; " +
  "the wrong kind of credential, an expired or revoked contract, or a missing entitlement is " +
  "403. Vendor headers such as X-API-Key are not read. A revoked key stops working at once on " +
  "the instance that revoked it and within 5 seconds everywhere.",
  "Limits: each runtime request counts against its contract's requests per UTC minute, " +
  "requests per UTC calendar month and concurrent requests. Every runtime response carries " +
  '`RateLimit-Policy` (e.g. `"minute";q=60;w=60, "month";q=10000;w=2592000`) and ' +
  '`RateLimit` (`"minute";r=<remaining>;t=<seconds to reset>, "month";r=…;t=…`). Over ' +
  "a limit: 429 `rate_limited` with `limit` (rate, quota or concurrency) and `Retry-After`. " +
  "GET /api/v1/platform/rate-limit-status reports the same counters.",
].join("\n\n");

/** This service's license (README, "License"); the O*NET and BLS data carry their own terms. */
const LICENSE = { name: "Apache License 2.0", identifier: "Apache-2.0" };

const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
  "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; " +
  "frame-ancestors 'none'";

const problemType = createRoute({
  method: "get",
  path: "/problems/{code}",
  security: [], // public
  tags: ["Meta"],
  summary: "Describe a problem type",
  description: "The `type` of every problem body points here.",
  request: {
    params: z.object({ code: z.string().min(1).max(64).regex(/^[a-z_]+$/) }),
  },
  responses: {
    200: {
      description: "The problem type.",
      content: {
        "application/json": {
          schema: z.object({ code: z.string(), status: z.number().int(), title: z.string() }),
        },
      },
    },
    ...problemResponses(404, 422),
  },
});

/** Registers the documentation routes on the root app (the document covers every router). */
export function registerDocs(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent("securitySchemes", "runtimeKey", {
    type: "http",
    scheme: "bearer",
    description: "Runtime API key, for occupation, market, workforce and grounding routes.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "managementToken", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "Management token from POST /api/v1/platform/login, for account routes.",
  });
  // Generated on each request (it names this server's origin); ids filled in centrally.
  app.get("/openapi.json", (c) => {
    const document = app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "Occupation Intelligence API",
        version: API_VERSION,
        description: DESCRIPTION,
        license: LICENSE,
      },
      servers: [{ url: new URL(c.req.url).origin }],
    });
    assignOperationIds(document.paths ?? {});
    c.header("cache-control", "public, max-age=300");
    return c.json(document);
  });
  app.get("/docs", (c) => {
    c.header("content-security-policy", CSP);
    c.header("cache-control", "public, max-age=300");
    return c.html(docsHtml());
  });
  app.get("/docs/app.js", (c) => {
    c.header("content-type", "text/javascript; charset=utf-8");
    c.header("cache-control", "public, max-age=300");
    return c.body(docsScript());
  });
  app.openapi(problemType, (c) => {
    const code = c.req.valid("param").code;
    if (!(code in ERROR_CATALOG)) throw new ApiError("not_found", "no such problem type");
    const entry = ERROR_CATALOG[code as ErrorCode];
    c.header("cache-control", "public, max-age=3600");
    return c.json({ code, status: entry.status, title: entry.title }, 200);
  });
}
