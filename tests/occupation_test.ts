/** Occupation summary and profile: shapes, ordering, codes, auth, on the fixture release. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { buildFixture, testApp, variantRelease } from "./helpers.ts";
import type { TaxonomyData } from "../serve/occupation/artifact.ts";
import { occupationDetails, occupationSkills } from "../serve/occupation/queries.ts";
import { ANSWERS_SNAPSHOT } from "../serve/occupation/answers.ts";
import { call, signUp, type TestApp } from "./platform.ts";

Deno.test("occupation summary and profile from the taxonomy artifact", async () => {
  const t = await testApp();
  try {
    const { key, token } = await signUp(t);
    const summary = await call(t, "GET", "/api/v1/occupation/11-1011.00", { bearer: key });
    assert.equal(summary.status, 200);
    assert.equal(summary.body.onet_code, "11-1011.00");
    assert.equal(summary.body.title, "Chief Executives");
    assert.equal(summary.body.taxonomy_version, "29.3");
    const skills = summary.body.top_skills as { skill_name: string; importance: number }[];
    assert.ok(skills.length > 0 && skills.length <= 10);
    for (let i = 1; i < skills.length; i++) {
      assert.ok(skills[i - 1].importance >= skills[i].importance, "most important first");
    }
    assert.deepEqual(Object.keys(skills[0]).sort(), ["importance", "level", "skill_name"]);

    const profile = await call(t, "GET", "/api/v1/occupation/profile/11-1011.00", {
      bearer: key,
    });
    assert.equal(profile.status, 200);
    const body = profile.body as Record<string, unknown>;
    const occupation = body.occupation as Record<string, unknown>;
    assert.equal(occupation.title, "Chief Executives");
    assert.match(String(occupation.description), /^Lead an entire organization/);
    const all = body.skills as { name: string }[];
    assert.ok(all.length >= skills.length);
    assert.deepEqual(
      all.slice(0, skills.length).map((s) => s.name),
      skills.map((s) => s.skill_name),
    );
    const techs = body.technologies as { is_hot: boolean; name: string }[];
    assert.ok(techs.length > 0);
    assert.ok(typeof techs[0].is_hot === "boolean");
    assert.ok((body.tasks as string[]).length > 0);
    const related = body.related_occupations as {
      onet_code: string;
      relatedness_tier: string;
      rank: number;
    }[];
    assert.ok(related.length > 0);
    assert.match(related[0].relatedness_tier, /^(Primary-Short|Primary-Long|Supplemental)$/);
    for (let i = 1; i < related.length; i++) assert.ok(related[i - 1].rank <= related[i].rank);
    assert.match(String(body.attribution), /O\*NET/);

    const again = await call(t, "GET", "/api/v1/occupation/profile/11-1011.00", { bearer: key });
    assert.deepEqual(again.body, profile.body, "deterministic");

    const unknown = await call(t, "GET", "/api/v1/occupation/99-9999.99", { bearer: key });
    assert.equal(unknown.status, 404);
    for (const bad of ["11-1011", "nurse", "11-1011.000", "11_1011.00"]) {
      const response = await call(t, "GET", `/api/v1/occupation/profile/${bad}`, { bearer: key });
      assert.equal(response.status, 422, bad);
      assert.deepEqual((response.body.errors as { loc: string[] }[])[0].loc, ["path", "onet_code"]);
      assert.ok(!JSON.stringify(response.body).includes(bad), "no echo");
    }
    assert.equal((await call(t, "GET", "/api/v1/occupation/11-1011.00")).status, 401);
    assert.equal(
      (await call(t, "GET", "/api/v1/occupation/11-1011.00", { bearer: token })).status,
      403,
    );
  } finally {
    await t.cleanup();
  }
});

/** The summary and profile as the routes built them from DuckDB on every request. */
async function fromDuckDb(t: TestApp, code: string) {
  const answer = await t.artifacts.use<TaxonomyData, [string, string]>(
    "taxonomy",
    async ({ data, version, manifest }) => {
      // The registry closed the version's file after loading it: open it here, read-only.
      const file = join(t.artifactsDir, "taxonomy", version, manifest.file.name);
      const instance = await DuckDBInstance.create(file, { access_mode: "READ_ONLY" });
      const connection = await instance.connect();
      try {
        const title = data.occupations.get(code)!.title;
        const top = await occupationSkills(connection, code, 10);
        const skills = await occupationSkills(connection, code);
        const details = await occupationDetails(connection, code);
        return [
          JSON.stringify({
            onet_code: code,
            title,
            top_skills: top.map((s) => ({
              skill_name: s.name,
              importance: s.importance,
              level: s.level,
            })),
            taxonomy_version: data.release,
          }),
          JSON.stringify({
            occupation: { onet_code: code, title, description: details.description },
            skills,
            technologies: details.technologies,
            tasks: details.tasks,
            related_occupations: details.related,
            taxonomy_version: data.release,
            attribution: data.attribution,
          }),
        ];
      } finally {
        connection.closeSync();
        instance.closeSync();
      }
    },
  );
  return answer!;
}

async function rawGet(t: TestApp, path: string, key: string) {
  const response = await t.app.request(path, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(response.status, 200, path);
  assert.equal(response.headers.get("content-type"), "application/json");
  return await response.text();
}

Deno.test("summary and profile from memory: the DuckDB answers byte for byte, per version", async () => {
  const t = await testApp();
  const variant = await variantRelease("(second version)");
  try {
    const { key } = await signUp(t);
    const current = async () =>
      (await t.artifacts.use<TaxonomyData, TaxonomyData>("taxonomy", ({ data }) => data))!;
    const all = [...(await current()).occupations.keys()];
    assert.ok(all.length >= 8);
    assert.equal((await current()).answersFrom, "snapshot", "the build wrote every body");
    assert.deepEqual((await current()).answers.codes, all, "a body pair for every occupation");
    // Eight codes across the release (the key's rate limit allows about 40 requests here).
    const codes = Array.from({ length: 8 }, (_, i) => all[Math.floor((i * all.length) / 8)]);
    for (const code of codes) {
      const [summary, profile] = await fromDuckDb(t, code);
      assert.equal(await rawGet(t, `/api/v1/occupation/${code}`, key), summary, code);
      assert.equal(await rawGet(t, `/api/v1/occupation/profile/${code}`, key), profile, code);
    }

    // A hot swap to a version without the snapshot: its bodies are encoded while it loads, the
    // same bytes, and never the old version's.
    const before = JSON.parse(await rawGet(t, `/api/v1/occupation/profile/${codes[0]}`, key));
    assert.doesNotMatch(before.occupation.description, /\(second version\)/);
    const v2 = await buildFixture(t.artifactsDir, variant.dir);
    await Deno.remove(`${t.artifactsDir}/taxonomy/${v2.version}/${ANSWERS_SNAPSHOT}`);
    await t.artifacts.reload("taxonomy");
    assert.equal(t.artifacts.status()[0].version, v2.version);
    assert.equal((await current()).answersFrom, "encoded (no snapshot), snapshot written back");
    const [, expected] = await fromDuckDb(t, codes[0]);
    const after = await rawGet(t, `/api/v1/occupation/profile/${codes[0]}`, key);
    assert.equal(after, expected);
    assert.match(JSON.parse(after).occupation.description, /\(second version\)$/);
    for (const code of codes.slice(1, 4)) {
      const [summary, profile] = await fromDuckDb(t, code);
      assert.equal(await rawGet(t, `/api/v1/occupation/${code}`, key), summary, code);
      assert.equal(await rawGet(t, `/api/v1/occupation/profile/${code}`, key), profile, code);
    }
    // The bodies are slices of one buffer: sending them leaves it whole for the next request.
    assert.equal(await rawGet(t, `/api/v1/occupation/profile/${codes[0]}`, key), expected);
  } finally {
    await variant.cleanup();
    await t.cleanup();
  }
});
