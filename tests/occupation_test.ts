/** Occupation summary and profile: shapes, ordering, codes, auth, on the fixture release. */
import assert from "node:assert/strict";
import { testApp } from "./helpers.ts";
import { call, signUp } from "./platform.ts";

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
