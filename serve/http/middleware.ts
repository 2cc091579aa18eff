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
export function bodyLimit(maxBytes: number): MiddlewareHandler {
  return async (c, next) => {
    if (!c.req.raw.body) return await next();
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
