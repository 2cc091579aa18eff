/** Liveness, readiness (database down, artifact missing), the OpenAPI document and /docs. */
import assert from "node:assert/strict";
import { testApp } from "./helpers.ts";

Deno.test("live is 200 and ready names the served taxonomy version", async () => {
  const ctx = await testApp();
  try {
    const live = await ctx.app.request("/health/live");
    assert.equal(live.status, 200);
    assert.deepEqual(await live.json(), { status: "live" });
    const ready = await ctx.app.request("/health/ready");
    assert.equal(ready.status, 200);
    assert.equal(ready.headers.get("cache-control"), "no-store");
    const body = await ready.json();
    assert.equal(body.status, "ready");
    assert.equal(body.checks.database, "ok");
    const taxonomy = body.checks.artifacts.find((a: { name: string }) => a.name === "taxonomy");
    assert.equal(taxonomy.state, "loaded");
    assert.equal(taxonomy.release, "29.3");
    assert.match(taxonomy.version, /^29\.3-[0-9a-f]{12}$/);
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("ready is 503 with reasons when the database is down", async () => {
  const ctx = await testApp();
  try {
    await ctx.database.close();
    const res = await ctx.app.request("/health/ready");
    assert.equal(res.status, 503);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    const body = await res.json();
    assert.equal(body.code, "not_ready");
    assert.deepEqual(body.reasons, ["database is not answering"]);
    assert.equal(body.checks.database, "unavailable");
    assert.ok(!JSON.stringify(body).includes(ctx.artifactsDir), "no local paths in the body");
    const live = await ctx.app.request("/health/live");
    assert.equal(live.status, 200, "liveness does not depend on the database");
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("ready is 503 when no taxonomy artifact is published", async () => {
  const ctx = await testApp({ build: false });
  try {
    const res = await ctx.app.request("/health/ready");
    assert.equal(res.status, 503);
    const body = await res.json();
    assert.deepEqual(body.reasons, ["taxonomy artifact is not loaded: no published version"]);
    assert.equal(body.checks.database, "ok");
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("openapi.json is OpenAPI 3.1 generated from the routes; /docs loads nothing external", async () => {
  const ctx = await testApp();
  try {
    const res = await ctx.app.request("/openapi.json");
    assert.equal(res.status, 200);
    const doc = await res.json();
    assert.equal(doc.openapi, "3.1.0");
    assert.equal(doc.info.version, "0.1.0");
    assert.ok(doc.paths["/health/ready"].get.responses["503"]);
    assert.ok(doc.components.schemas.Problem);
    assert.ok(doc.components.securitySchemes.runtimeKey);
    const docs = await ctx.app.request("/docs");
    assert.equal(docs.status, 200);
    const csp = docs.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'/);
    const html = await docs.text();
    assert.ok(!/(src|href)=["']https?:/i.test(html), "the page references another host");
    assert.match(html, /\/docs\/app\.js/);
    const script = await ctx.app.request("/docs/app.js");
    assert.equal(script.status, 200);
    assert.match(script.headers.get("content-type") ?? "", /javascript/);
    assert.match(await script.text(), /\/openapi\.json/);
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("problem types are documented at their type URI", async () => {
  const ctx = await testApp();
  try {
    const res = await ctx.app.request("/problems/validation_failed");
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      code: "validation_failed",
      status: 422,
      title: "Request validation failed",
    });
    assert.equal((await ctx.app.request("/problems/no_such_thing")).status, 404);
    assert.equal((await ctx.app.request("/problems/Bad-Code")).status, 422);
  } finally {
    await ctx.cleanup();
  }
});
