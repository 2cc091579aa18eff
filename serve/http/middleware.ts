/** Request id, access log and body-size middleware shared by every route. */
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { Logger } from "./log.ts";
import { ApiError } from "./errors.ts";

const INCOMING_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Accepts a well-formed incoming X-Request-Id or makes a new one; echoes it on the response. */
export function requestId(): MiddlewareHandler {
  return async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const id = incoming && INCOMING_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", id);
    await next();
    c.res.headers.set("x-request-id", id);
  };
}

/** One structured line per request: method, route template, status, duration, request id. */
export function accessLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const route = matchedRoute(c);
    logger.info("request", {
      method: c.req.method,
      route,
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
      request_id: c.get("requestId"),
    });
  };
}

/** The route template that handled the request, or "(unmatched)". */
export function matchedRoute(c: Context): string {
  const path = routePath(c, -1);
  return path === "/*" || path === "*" ? "(unmatched)" : path;
}

/**
 * Rejects bodies over `maxBytes` with 413: by Content-Length when it is declared, and by
 * counting the stream when it is chunked, so a client cannot bypass the limit.
 */
export function bodyLimit(jsonMaxBytes: number, uploadMaxBytes = jsonMaxBytes): MiddlewareHandler {
  return async (c, next) => {
    if (!c.req.raw.body) return await next();
    // File uploads (multipart/form-data) have their own, larger limit.
    const multipart = /^multipart\/form-data/i.test(c.req.header("content-type") ?? "");
    const maxBytes = multipart ? uploadMaxBytes : jsonMaxBytes;
    const declared = c.req.header("content-length");
    if (declared !== undefined && Number(declared) > maxBytes) {
      throw new ApiError("payload_too_large", `request bodies are limited to ${maxBytes} bytes`);
    }
    if (declared === undefined) {
      const reader = c.req.raw.body.getReader();
      const chunks: Uint8Array[] = [];
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          await reader.cancel();
          throw new ApiError(
            "payload_too_large",
            `request bodies are limited to ${maxBytes} bytes`,
          );
        }
        chunks.push(value);
      }
      const body = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        body.set(chunk, offset);
        offset += chunk.byteLength;
      }
      c.req.raw = new Request(c.req.raw, { body });
    }
    await next();
  };
}

const SURROGATE_ESCAPE = /\\u[dD][89abAB][0-9a-fA-F]{2}|\\u[dD][c-fC-F][0-9a-fA-F]{2}/;

/** The location of the first string (or key) holding ill-formed Unicode, or null. */
function illFormedAt(value: unknown, loc: (string | number)[]): (string | number)[] | null {
  if (typeof value === "string") return value.isWellFormed() ? null : loc;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = illFormedAt(value[i], [...loc, i]);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (!key.isWellFormed()) return loc; // the key itself: never echoed
      const found = illFormedAt(item, [...loc, key]);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Refuses JSON bodies holding ill-formed Unicode: a lone UTF-16 surrogate written as a JSON
 * escape ("\udfff") is valid JSON, but no UTF-8 store accepts it. It is a 422 naming the field
 * (never echoing it) before any handler, database write or background work sees it. The body
 * is read and parsed once here; the route's validator takes the parsed value from the cache.
 */
export function wellFormedJson(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.raw.body && /json/i.test(c.req.header("content-type") ?? "")) {
      const text = await c.req.text();
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return await next(); // malformed JSON: the route's validator reports it
      }
      // The route's validator reads this parse instead of parsing the text again.
      c.req.bodyCache.json = Promise.resolve(value);
      if (SURROGATE_ESCAPE.test(text)) {
        const loc = illFormedAt(value, ["body"]);
        if (loc) {
          throw new ApiError("validation_failed", "1 field(s) failed validation", {
            errors: [{
              loc,
              msg: "must be well-formed Unicode text (no lone UTF-16 surrogate)",
              type: "ill_formed_unicode",
            }],
          });
        }
      }
    }
    await next();
  };
}
