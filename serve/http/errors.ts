/**
 * The error catalog and problem rendering. Handlers throw ApiError with a stable code;
 * only the app's onError and notFound render responses, always as RFC 9457
 * application/problem+json with the request id as `instance`.
 */
import type { Context } from "hono";
import { z } from "@hono/zod-openapi";

/** Every error code the service can return, with its status and title. */
export const ERROR_CATALOG = {
  validation_failed: { status: 422, title: "Request validation failed" },
  malformed_json: { status: 422, title: "Request body is not valid JSON" },
  idempotency_key_reused: {
    status: 422,
    title: "Idempotency-Key already used with a different request",
  },
  ingestion_failed: { status: 422, title: "Ingestion failed: the document gave no usable text" },
  not_found: { status: 404, title: "Not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  conflict: { status: 409, title: "Conflict with the current state" },
  evidence_unavailable: { status: 409, title: "Required reviewed evidence is unavailable" },
  payload_too_large: { status: 413, title: "Request body too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  bad_request: { status: 400, title: "Bad request" },
  unauthorized: { status: 401, title: "Authentication required" },
  forbidden: { status: 403, title: "Not allowed" },
  rate_limited: { status: 429, title: "Too many requests" },
  not_ready: { status: 503, title: "Service not ready" },
  overloaded: { status: 503, title: "Server busy" },
  internal_error: { status: 500, title: "Internal server error" },
} as const;

/** A code from the error catalog. */
export type ErrorCode = keyof typeof ERROR_CATALOG;

/** One validation problem: where (loc), what rule was broken (type) and a message. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** An error with a catalog code; its detail and extras are safe to show to the client. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? ERROR_CATALOG[code].title);
    this.name = "ApiError";
  }
}

/** The problem+json body schema, as documented in the OpenAPI description. */
export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: "/problems/validation_failed" }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().openapi({ description: "The request id (also in X-Request-Id)." }),
    code: z.enum(Object.keys(ERROR_CATALOG) as [ErrorCode, ...ErrorCode[]]),
    errors: z
      .array(z.object({
        loc: z.array(z.union([z.string(), z.number()])),
        msg: z.string(),
        type: z.string(),
      }))
      .optional()
      .openapi({ description: "Validation failures; values submitted are never echoed." }),
  })
  .openapi("Problem");

/** Renders a problem+json response for a catalog code. */
export function problemResponse(
  c: Context,
  code: ErrorCode,
  detail?: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  const { status, title } = ERROR_CATALOG[code];
  const body = {
    type: `/problems/${code}`,
    title,
    status,
    ...(detail ? { detail } : {}),
    instance: String(c.get("requestId") ?? ""),
    code,
    ...extra,
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/problem+json",
      "cache-control": "no-store", // X-Request-Id is added by the request-id middleware
      ...headers,
    },
  });
}

/** OpenAPI response entries for the given error statuses, all problem+json. */
export function problemResponses(...statuses: number[]) {
  const entries: Record<number, { description: string; content: Record<string, unknown> }> = {};
  for (const status of statuses) {
    const titles = Object.values(ERROR_CATALOG)
      .filter((e) => e.status === status)
      .map((e) => e.title);
    entries[status] = {
      description: titles.join("; ") || "Error",
      content: { "application/problem+json": { schema: ProblemSchema } },
    };
  }
  return entries;
}
