/** The error model: problem+json bodies, 422 shape without echo, request ids, 404/405/413/500. */
import assert from "node:assert/strict";
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../serve/http/router.ts";
import { testApp } from "./helpers.ts";

const SENTINEL = "SENTINEL-submitted-text-must-not-be-echoed";

/** A small router that uses the shared validation machinery, mounted only in these tests. */
function probeRouter() {
  const router = createRouter();
  router.openapi(
    createRoute({
      method: "post",
      path: "/probe",
      request: {
        query: z.object({ limit: z.coerce.number().int().min(1).max(10).default(5) }),
        body: {
          required: true,
          content: {
            "application/json": {
              schema: z.object({
                title: z.string().min(1).max(20),
                nested: z.object({ code: z.string().regex(/^\d{2}-\d{4}\.\d{2}$/) }).optional(),
              }).strict(),
            },
          },
        },
      },
      responses: { 200: { description: "ok" } },
    }),
    (c) => c.json({ ok: true, limit: c.req.valid("query").limit }),
  );
  router.get("/boom", () => {
    throw new Error("connection string postgres://user:hunter2@db/prod");
  });
  return router;
}

async function withApp(fn: (ctx: Awaited<ReturnType<typeof testApp>>) => Promise<void>) {
  const ctx = await testApp({ maxBodyBytes: 4096 });
  ctx.app.route("/test", probeRouter());
  try {
    await fn(ctx);
  } finally {
    await ctx.cleanup();
  }
}

function post(body: string, headers: Record<string, string> = {}, query = "") {
  return new Request(`http://localhost/test/probe${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
}

Deno.test("422: field path and rule for each failure, no submitted value echoed", async () => {
  await withApp(async ({ app }) => {
    const res = await app.request(
      post(JSON.stringify({ title: SENTINEL, nested: { code: SENTINEL }, extra: SENTINEL })),
    );
    assert.equal(res.status, 422);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    const text = await res.text();
    assert.ok(!text.includes(SENTINEL), "the body echoes submitted content");
    const body = JSON.parse(text);
    assert.equal(body.code, "validation_failed");
    assert.equal(body.type, "/problems/validation_failed");
    assert.equal(body.status, 422);
    assert.equal(body.instance, res.headers.get("x-request-id"));
    const byLoc = new Map(body.errors.map((e: { loc: string[] }) => [e.loc.join("."), e]));
    assert.equal((byLoc.get("body.title") as { type: string }).type, "too_big.string");
    assert.equal((byLoc.get("body.nested.code") as { type: string }).type, "invalid_format");
    // An unknown property is located at itself (its name is a plain identifier).
    assert.equal((byLoc.get("body.extra") as { type: string }).type, "unrecognized_keys");
    for (const e of body.errors) assert.equal(typeof e.msg, "string");
  });
});

Deno.test("422: query parameters are located under query", async () => {
  await withApp(async ({ app }) => {
    const res = await app.request(post(JSON.stringify({ title: "ok" }), {}, "?limit=11"));
    assert.equal(res.status, 422);
    const body = await res.json();
    assert.deepEqual(body.errors[0].loc, ["query", "limit"]);
    assert.equal(body.errors[0].type, "too_big.number");
    const good = await app.request(post(JSON.stringify({ title: "ok" }), {}, "?limit=3"));
    assert.equal(good.status, 200);
    assert.deepEqual(await good.json(), { ok: true, limit: 3 });
  });
});

Deno.test("malformed JSON is a 422 problem that does not echo the body", async () => {
  await withApp(async ({ app }) => {
    const res = await app.request(post(`{"title": "${SENTINEL}`));
    assert.equal(res.status, 422);
    const text = await res.text();
    assert.ok(!text.includes(SENTINEL));
    const body = JSON.parse(text);
    assert.equal(body.code, "malformed_json");
    assert.deepEqual(body.errors[0].loc, ["body"]);
  });
});

Deno.test("oversized bodies are 413, declared or chunked", async () => {
  await withApp(async ({ app }) => {
    const big = JSON.stringify({ title: "x".repeat(10_000) });
    const declared = await app.request(post(big));
    assert.equal(declared.status, 413);
    assert.equal((await declared.json()).code, "payload_too_large");
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode("x".repeat(1000)));
        controller.close();
      },
    });
    const chunked = await app.request(
      new Request("http://localhost/test/probe", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: stream,
      }),
    );
    assert.equal(chunked.status, 413);
  });
});

Deno.test("request ids: generated, echoed when well-formed, replaced when not", async () => {
  await withApp(async ({ app }) => {
    const generated = await app.request("/health/live");
    assert.match(generated.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
    const mine = await app.request("/health/live", {
      headers: { "x-request-id": "client-id-1234" },
    });
    assert.equal(mine.headers.get("x-request-id"), "client-id-1234");
    const bad = await app.request("/health/live", { headers: { "x-request-id": "<script>" } });
    assert.notEqual(bad.headers.get("x-request-id"), "<script>");
  });
});

Deno.test("unknown route 404, wrong method 405 with Allow, both problem+json", async () => {
  await withApp(async ({ app }) => {
    const missing = await app.request("/api/v1/nothing-here");
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("content-type"), "application/problem+json");
    assert.equal((await missing.json()).code, "not_found");
    const wrong = await app.request("/health/ready", { method: "DELETE" });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get("allow"), "GET, HEAD");
    const body = await wrong.json();
    assert.equal(body.code, "method_not_allowed");
    assert.equal(body.instance, wrong.headers.get("x-request-id"));
  });
});

Deno.test("unexpected errors are a bare 500 with the request id; detail goes to the log", async () => {
  await withApp(async ({ app, logger }) => {
    const res = await app.request("/test/boom");
    assert.equal(res.status, 500);
    const text = await res.text();
    assert.ok(!text.includes("hunter2") && !text.includes("postgres://"));
    const body = JSON.parse(text);
    assert.equal(body.code, "internal_error");
    assert.equal(body.instance, res.headers.get("x-request-id"));
    const logged = logger.lines.find((l) => l.msg === "unhandled error");
    assert.ok(logged, "the error is logged");
    assert.equal(logged.request_id, body.instance);
    assert.match(String(logged.error), /hunter2/);
  });
});

Deno.test("one access-log line per request, with route template and without submitted text", async () => {
  await withApp(async ({ app, logger }) => {
    await app.request(post(JSON.stringify({ title: SENTINEL })));
    const lines = logger.lines.filter((l) => l.msg === "request");
    assert.equal(lines.length, 1);
    const line = lines[0];
    assert.equal(line.method, "POST");
    assert.equal(line.route, "/test/probe");
    assert.equal(line.status, 422);
    assert.equal(typeof line.duration_ms, "number");
    assert.equal(typeof line.request_id, "string");
    assert.ok(!JSON.stringify(logger.lines).includes(SENTINEL));
  });
});
