/** Market routes on the sample feed: shapes, sorting, bounds and 422s, auth, 503, hot swap. */
import assert from "node:assert/strict";
import { FIXTURE_FEED, testApp } from "./helpers.ts";
import { call, signUp } from "./platform.ts";
import { buildMarket } from "../build/market/pipeline.ts";

const BASIS = [
  "artifact_version",
  "dedup_rule",
  "dedup_rule_version",
  "jobs_in_scope",
  "note",
  "postings_in_scope",
  "taxonomy_version",
  "unit",
  "window",
];

Deno.test("market routes", async (t) => {
  const app = await testApp({
    market: true,
    env: {
      BETA_RATE_PER_MINUTE: "1000000",
      BETA_MONTHLY_QUOTA: "10000000",
      BETA_CONCURRENCY: "64",
    },
  });
  try {
    const { key, token } = await signUp(app);
    const get = (path: string, bearer: string | null = key) =>
      call(app, "GET", path, bearer === null ? {} : { bearer });

    await t.step("top: technologies in the active scope, sorted, with their basis", async () => {
      const r = await get("/api/v1/market/top?type=technology");
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body).sort(), ["country", "scope", "terms", ...BASIS].sort());
      assert.equal(r.body.scope, "active");
      assert.equal(r.body.country, null);
      assert.equal(r.body.unit, "distinct_jobs");
      assert.deepEqual(r.body.window, {
        start: "2026-04-06",
        end: "2026-05-05",
        as_of: "2026-05-05",
        days: 30,
      });
      assert.equal(r.body.dedup_rule_version, "dedup-v1");
      const terms = r.body.terms as { term_name: string; job_count: number; percentage: number }[];
      assert.ok(terms.length > 3);
      assert.deepEqual(Object.keys(terms[0]).sort(), [
        "job_count",
        "percentage",
        "term_name",
        "term_type",
      ]);
      assert.equal(terms[0].term_name, "Python");
      for (let i = 1; i < terms.length; i++) {
        const [a, b] = [terms[i - 1], terms[i]];
        assert.ok(
          a.job_count > b.job_count || (a.job_count === b.job_count && a.term_name < b.term_name),
        );
      }
      const jobs = r.body.jobs_in_scope as number;
      assert.equal(terms[0].percentage, Math.round((terms[0].job_count / jobs) * 10000) / 100);
    });

    await t.step("top: country filter by code or name, historical scope, limit", async () => {
      const gb = await get("/api/v1/market/top?type=technology&country=gb&limit=2");
      assert.equal(gb.status, 200);
      assert.equal(gb.body.country, "GB");
      assert.equal(gb.body.jobs_in_scope, 1);
      assert.equal((gb.body.terms as unknown[]).length, 2);
      const named = await get("/api/v1/market/top?type=technology&country=United%20Kingdom");
      assert.equal(named.body.country, "GB");
      const empty = await get("/api/v1/market/top?type=technology&country=");
      assert.equal(empty.status, 200);
      assert.equal(empty.body.country, null);
      const none = await get("/api/v1/market/top?type=skill&country=JP");
      assert.equal(none.status, 200);
      assert.deepEqual(none.body.terms, []);
      assert.equal(none.body.jobs_in_scope, 0);
      const historical = await get("/api/v1/market/top?type=technology&scope=historical");
      assert.equal(historical.body.scope, "historical");
      assert.equal((historical.body.window as { days: unknown }).days, null);
      assert.ok(
        (historical.body.jobs_in_scope as number) >
          (r0(await get("/api/v1/market/top?type=technology"))),
      );
    });

    await t.step("bounds and 422s name the field, never echo it", async () => {
      for (
        const [query, loc] of [
          ["", "type"],
          ["type=gadget", "type"],
          ["type=skill&scope=forever", "scope"],
          ["type=skill&limit=0", "limit"],
          ["type=skill&limit=101", "limit"],
          ["type=skill&limit=abc", "limit"],
          ["type=skill&country=Narnia-7777", "country"],
        ]
      ) {
        const r = await get(`/api/v1/market/top?${query}`);
        assert.equal(r.status, 422, query);
        const errors = r.body.errors as { loc: string[] }[];
        assert.deepEqual(errors[0].loc, ["query", loc], query);
        assert.ok(!JSON.stringify(r.body).includes("Narnia"), "no echo");
        assert.ok(!JSON.stringify(r.body).includes("gadget"), "no echo");
      }
      for (
        const path of ["/api/v1/market/skills/trending", "/api/v1/market/technologies/trending"]
      ) {
        assert.equal((await get(`${path}?limit=0`)).status, 422);
        assert.equal((await get(`${path}?limit=101`)).status, 422);
      }
    });

    await t.step("trending: growth rate semantics and windows", async () => {
      const r = await get("/api/v1/market/technologies/trending?limit=100");
      assert.equal(r.status, 200);
      const rows = r.body.technologies as {
        technology_name: string;
        growth_rate: number;
        current_count: number;
        previous_count: number;
      }[];
      const react = rows.find((x) => x.technology_name === "React");
      assert.deepEqual(react, {
        technology_name: "React",
        current_count: 3,
        previous_count: 0,
        growth_rate: 1,
      });
      assert.equal(rows.find((x) => x.technology_name === "Oracle Java")?.growth_rate, -1);
      assert.deepEqual(r.body.previous_window, {
        start: "2026-03-07",
        end: "2026-04-05",
        as_of: "2026-05-05",
        days: 30,
      });
      for (let i = 1; i < rows.length; i++) {
        assert.ok(rows[i - 1].growth_rate >= rows[i].growth_rate);
      }
      const skills = await get("/api/v1/market/skills/trending?limit=1");
      assert.equal(skills.status, 200);
      assert.ok(Array.isArray(skills.body.skills));
      assert.ok((skills.body.skills as unknown[]).length <= 1);
    });

    await t.step("overview and remote rate (active scope)", async () => {
      const r = await get("/api/v1/market/overview");
      assert.equal(r.status, 200);
      assert.equal(r.body.scope, "active");
      const tech = r.body.top_technologies as { technology_name: string }[];
      assert.equal(tech[0].technology_name, "Python");
      const remote = r.body.remote_rate as {
        country_code: string;
        remote_rate: number;
        remote_jobs: number;
        total_jobs: number;
      }[];
      const us = remote.find((x) => x.country_code === "US")!;
      assert.equal(us.remote_rate, Math.round((us.remote_jobs / us.total_jobs) * 10000) / 10000);
      const rr = await get("/api/v1/market/remote-rate");
      assert.equal(rr.status, 200);
      assert.deepEqual(rr.body.remote_rate, r.body.remote_rate);
    });

    await t.step("auth: no key 401, management token 403", async () => {
      assert.equal((await get("/api/v1/market/overview", null)).status, 401);
      assert.equal((await get("/api/v1/market/overview", token)).status, 403);
      assert.equal((await get("/api/v1/market/top?type=skill", null)).status, 401);
    });

    await t.step("a hot swap to a new version under load fails no request", async () => {
      const before = (await get("/api/v1/market/overview")).body.artifact_version;
      let failures = 0;
      let served = 0;
      let done = false;
      const load = (async () => {
        while (!done) {
          const responses = await Promise.all(
            Array.from({ length: 8 }, () => get("/api/v1/market/top?type=technology&limit=5")),
          );
          failures += responses.filter((x) => x.status !== 200).length;
          served += responses.length;
          await new Promise((resolve) => setTimeout(resolve, 0)); // let the build's I/O run
        }
      })();
      const swapped = await buildMarket(app.artifactsDir, {
        postings: [FIXTURE_FEED],
        asOf: "2026-04-20",
      });
      await app.artifacts.reload("market");
      await new Promise((resolve) => setTimeout(resolve, 100));
      done = true;
      await load;
      assert.equal(failures, 0);
      assert.ok(served > 0);
      const after = (await get("/api/v1/market/overview")).body.artifact_version;
      assert.notEqual(after, before);
      assert.equal(after, swapped.version);
    });
  } finally {
    await app.cleanup();
  }
});

function r0(r: { body: Record<string, unknown> }): number {
  return r.body.jobs_in_scope as number;
}

Deno.test("market routes answer 503 naming the missing artifact; readiness lists it", async () => {
  const app = await testApp();
  try {
    const { key } = await signUp(app);
    const r = await call(app, "GET", "/api/v1/market/overview", { bearer: key });
    assert.equal(r.status, 503);
    assert.deepEqual(r.body.missing, ["market"]);
    const ready = await call(app, "GET", "/health/ready", {});
    const checks = (ready.body.checks as { artifacts: { name: string; state: string }[] })
      .artifacts;
    assert.equal(checks.find((a) => a.name === "market")?.state, "missing");
  } finally {
    await app.cleanup();
  }
});
