import assert from "node:assert/strict";
import { Hono } from "hono";
import { StaticMatchCache } from "./router.ts";

Deno.test("the static match cache answers as Hono's router, keeps only matches without parameters, and is bounded", async () => {
  // deno-lint-ignore no-explicit-any
  const router = new StaticMatchCache<any>(undefined, 3);
  const app = new Hono({ router });
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set("x-seen", "1");
  });
  app.get("/api/v1/occupation/:code", (c) => c.text(`summary ${c.req.param("code")}`));
  app.get("/api/v1/occupation/profile/:code", (c) => c.text(`profile ${c.req.param("code")}`));
  app.post("/api/v1/occupation/candidates", (c) => c.text("candidates"));

  const text = async (method: string, path: string) => {
    const response = await app.request(path, { method });
    return `${response.status} ${await response.text()} ${response.headers.get("x-seen")}`;
  };
  for (let i = 0; i < 3; i++) {
    // Parameters differ per path, so these are matched every time and never mixed up.
    assert.equal(
      await text("GET", `/api/v1/occupation/15-1252.0${i}`),
      `200 summary 15-1252.0${i} 1`,
    );
    assert.equal(
      await text("GET", `/api/v1/occupation/profile/29-1141.0${i}`),
      `200 profile 29-1141.0${i} 1`,
    );
    assert.equal(await text("POST", "/api/v1/occupation/candidates"), "200 candidates 1");
  }
  assert.equal(await text("GET", "/api/v1/occupation/candidates"), "200 summary candidates 1");
  // The same match object for a repeated path without parameters.
  assert.equal(
    router.match("POST", "/api/v1/occupation/candidates"),
    router.match("POST", "/api/v1/occupation/candidates"),
  );
  assert.notEqual(
    router.match("GET", "/api/v1/occupation/a"),
    router.match("GET", "/api/v1/occupation/a"),
  );
  // Bounded: past the limit, new paths are matched every time, still correctly.
  for (const path of ["/x", "/y", "/z", "/w"]) {
    assert.equal(await text("GET", path), "404 404 Not Found 1");
  }
  assert.notEqual(router.match("GET", "/w"), router.match("GET", "/w"));
});
