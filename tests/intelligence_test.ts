/**
 * Candidates, analyze and classify on the fixture release: shapes, bounds, determinism, the
 * fallback policy, debug blocks, insufficient input and auth.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers.ts";
import { call, signUp } from "./platform.ts";

type Json = Record<string, unknown>;

const REASONS = new Set([
  "normalized_primary_title_match",
  "complete_occupational_phrase_match",
  "primary_title_token_match",
  "occupational_context_match",
  "role_head_match",
  "description_match",
  "task_match",
  "vector_candidate_expansion",
]);

Deno.test("candidates: shape, evidence, policy, determinism and bounds", async () => {
  const t = await testApp();
  try {
    const { key } = await signUp(t);
    const post = (body: unknown) =>
      call(t, "POST", "/api/v1/occupation/candidates", { bearer: key, body });
    const title = "Sr. Registered Nurse (RN) - ICU Night Shift, Dallas, TX";
    const response = await post({ title });
    assert.equal(response.status, 200);
    const body = response.body as Json;
    assert.deepEqual(Object.keys(body).sort(), [
      "attribution",
      "candidates",
      "decision",
      "mapping_selected",
      "policy",
      "query",
      "score_interpretation",
      "taxonomy_version",
    ]);
    assert.deepEqual(body.query, { title, description_used: false });
    assert.equal(body.decision, "candidates_only");
    assert.equal(body.mapping_selected, false);
    assert.equal(body.taxonomy_version, "29.3");
    assert.equal(body.policy, "svc-onet-hybrid-shortlist-29.3-v1");
    assert.equal(body.score_interpretation, "ordering_only_not_probability");
    assert.match(String(body.attribution), /CC BY 4\.0/);
    const candidates = body.candidates as Json[];
    assert.ok(candidates.length >= 1 && candidates.length <= 5, "default limit 5");
    assert.equal(candidates[0].onet_code, "29-1141.00");
    candidates.forEach((c, i) => {
      assert.equal(c.rank, i + 1);
      assert.ok(typeof c.relevance_score === "number");
      if (i > 0) {
        assert.ok(Number(candidates[i - 1].relevance_score) >= Number(c.relevance_score));
      }
      for (const reason of c.match_reasons as string[]) assert.ok(REASONS.has(reason), reason);
      assert.deepEqual(Object.keys(c.evidence as Json).sort(), [
        "candidate_role_head",
        "description_term_matches",
        "matched_title",
        "query_role_head",
        "role_head_agreement",
        "task_term_matches",
        "title_match_type",
      ]);
    });
    const top = candidates[0];
    const evidence = top.evidence as Json;
    assert.equal(evidence.query_role_head, "nurse");
    assert.equal(evidence.candidate_role_head, "nurse");
    assert.equal(evidence.role_head_agreement, true);
    assert.ok((top.match_reasons as string[]).includes("role_head_match"));
    assert.ok((top.match_reasons as string[]).includes("normalized_primary_title_match"));

    // Byte-identical for identical requests.
    const raw = async () =>
      await (await t.app.request("/api/v1/occupation/candidates", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ title: "truck driver", limit: 10 }),
      })).text();
    assert.equal(await raw(), await raw());

    // A description sharpens the order and is reported as used; markup and contacts are ignored.
    const described = await post({
      title: "Nurse",
      description: "<p>Care for patients in the <b>intensive care unit</b> with unstable " +
        "conditions; monitor vital signs. Apply at https://jobs.example.com or " +
        "call +1 (555) 123-4567, hr@example.com</p>",
      limit: 10,
    });
    assert.equal(described.status, 200);
    assert.equal((described.body.query as Json).description_used, true);
    const dc = described.body.candidates as Json[];
    assert.ok(dc.some((c) => (c.evidence as Json).description_term_matches as number > 0));
    assert.ok(dc.some((c) => (c.match_reasons as string[]).includes("description_match")));

    // Nonsense and empty-after-cleaning input: 200 with an empty list.
    for (const nonsense of ["xqzv plmk", "!!! ???", "   ", "Req #123456 - Austin, TX"]) {
      const r = await post({ title: nonsense });
      assert.equal(r.status, 200, nonsense);
      assert.deepEqual(r.body.candidates, [], nonsense);
    }

    // Bounds: 422 with the field path and the rule, never an echo.
    const long = "nurse ".repeat(60);
    for (
      const [bad, loc, type] of [
        [{ title: "" }, ["body", "title"], "too_small.string"],
        [{ title: long }, ["body", "title"], "too_big.string"],
        [{ title: "nurse", limit: 0 }, ["body", "limit"], "too_small.number"],
        [{ title: "nurse", limit: 11 }, ["body", "limit"], "too_big.number"],
        [{ title: "nurse", limit: 2.5 }, ["body", "limit"], "invalid_type"],
        [
          { title: "nurse", description: "x".repeat(20_001) },
          ["body", "description"],
          "too_big.string",
        ],
        [{}, ["body", "title"], "invalid_type"],
      ] as const
    ) {
      const r = await post(bad);
      assert.equal(r.status, 422, JSON.stringify(loc));
      const issue = (r.body.errors as { loc: string[]; type: string }[])[0];
      assert.deepEqual(issue.loc, loc);
      assert.equal(issue.type, type);
      assert.ok(!JSON.stringify(r.body).includes("nurse nurse"), "no echo");
    }
    assert.equal((await post({ title: "x".repeat(300) })).status, 200, "300 characters is fine");
    for (const odd of ["\u0000\u0001", "<script>nurse</script>", "名前 看護師"]) {
      const r = await post({ title: odd, description: odd });
      assert.equal(r.status, 200, JSON.stringify(odd));
    }
    // Ill-formed Unicode (a lone surrogate) is refused for every JSON body (tests/unicode_test.ts).
    const lone = await post({ title: "\ud800 nurse" });
    assert.equal(lone.status, 422);
    assert.equal((lone.body.errors as { type: string }[])[0].type, "ill_formed_unicode");
    // A long description is ranked, not cached, and gives the same answer twice.
    const longDescription = "Care for patients in the intensive care unit. ".repeat(100);
    const first = await post({ title: "Nurse", description: longDescription });
    const second = await post({ title: "Nurse", description: longDescription });
    assert.deepEqual(first.body, second.body);
    assert.equal((await post({ title: "nurse", limit: 10 })).status, 200);

    // A wrong method on the literal path is 405, not the GET {onet_code} route's 422.
    for (const method of ["GET", "PUT"]) {
      const r = await call(t, method, "/api/v1/occupation/candidates", { bearer: key });
      assert.equal(r.status, 405, method);
      assert.equal(r.headers.get("allow"), "POST");
    }

    // Runtime key required; a management token is the wrong kind of credential.
    const anonymous = await call(t, "POST", "/api/v1/occupation/candidates", {
      body: { title: "nurse" },
    });
    assert.equal(anonymous.status, 401);
  } finally {
    await t.cleanup();
  }
});

Deno.test("candidates: lexical fallback policy without vectors or with the channel off", async () => {
  for (const options of [{ vectors: false }, { semantic: false }]) {
    const t = await testApp(options);
    try {
      const { key } = await signUp(t);
      const r = await call(t, "POST", "/api/v1/occupation/candidates", {
        bearer: key,
        body: { title: "Registered Nurse" },
      });
      assert.equal(r.status, 200);
      assert.equal(r.body.policy, "svc-onet-candidate-retrieval-29.3-v1", JSON.stringify(options));
      const candidates = r.body.candidates as Json[];
      assert.equal(candidates[0].onet_code, "29-1141.00");
      for (const c of candidates) {
        assert.ok(!(c.match_reasons as string[]).includes("vector_candidate_expansion"));
      }
    } finally {
      await t.cleanup();
    }
  }
});

Deno.test("analyze and classify: calibrated confidence, grounding, debug blocks", async () => {
  const t = await testApp();
  try {
    const { key } = await signUp(t);
    const analyze = (body: unknown) =>
      call(t, "POST", "/api/v1/job/analyze", { bearer: key, body });
    const classify = (body: unknown) =>
      call(t, "POST", "/api/v1/job/classify", { bearer: key, body });

    const a = await analyze({
      title: "Software Developer",
      description: "Build web applications in Python and JavaScript; write unit tests.",
    });
    assert.equal(a.status, 200);
    const body = a.body as Json;
    for (const field of ["confidence", "confidence_raw"]) {
      assert.ok(typeof body[field] === "number" && body[field] >= 0 && body[field] <= 1, field);
    }
    assert.equal(body.calibration_method, "logistic_regression");
    assert.match(String(body.confidence_band), /^(high|medium|low)$/);
    assert.match(String(body.domain_grounding), /^(high|medium|low)$/);
    assert.ok(String(body.domain_grounding_explanation).length > 20);
    assert.ok(String(body.confidence_explanation).length > 20);
    assert.equal(body.confidence_debug, undefined, "no debug block without debug");
    assert.equal(body.decision, undefined, "no decision block without debug");
    const results = body.results as Json[];
    assert.ok(results.length >= 1 && results.length <= 5);
    assert.equal(results[0].onet_code, "15-1252.00");
    assert.equal(results[0].confidence, body.confidence);
    const total = results.reduce((s, r) => s + (r.confidence as number), 0);
    assert.ok(total <= 1.0001, "result confidences are a distribution over the list");
    assert.deepEqual(Object.keys(results[0]).sort(), [
      "confidence",
      "confidence_explanation",
      "domain_grounding",
      "domain_grounding_explanation",
      "matching_skills",
      "onet_code",
      "related_occupations",
      "title",
    ]);
    assert.ok(Array.isArray(results[0].related_occupations));
    const skills = results[0].matching_skills as string[];
    assert.ok(skills.some((s) => /python|javascript/i.test(s)), JSON.stringify(skills));

    // Debug adds both blocks at the top level, and nothing else changes.
    const d = await analyze({
      title: "Software Developer",
      description: "Build web applications in Python and JavaScript; write unit tests.",
      debug: true,
    });
    const debug = d.body.confidence_debug as Json;
    assert.deepEqual(Object.keys(debug).sort(), [
      "adjusted_confidence",
      "base_confidence",
      "entropy",
      "margin",
    ]);
    assert.equal(debug.adjusted_confidence, body.confidence);
    assert.equal(debug.base_confidence, body.confidence_raw);
    const decision = d.body.decision as Json;
    assert.match(String(decision.decision), /^(ACCEPT|REVIEW|REJECT)$/);
    assert.equal(decision.decision_score, body.confidence);
    assert.ok(String(decision.applied_rule).length > 0 && String(decision.reason).length > 0);
    const { confidence_debug: _c, decision: _d, ...rest } = d.body as Json;
    assert.deepEqual(rest, body);

    // A clear title grounds well; an exact title is more confident than a vague one.
    const exact = await classify({ title: "Registered Nurse" });
    assert.equal(exact.status, 200);
    assert.deepEqual(exact.body.occupation, {
      onet_code: "29-1141.00",
      title: "Registered Nurses",
    });
    assert.equal(exact.body.domain_grounding, "high");
    const vague = await classify({ title: "Associate" });
    if (vague.status === 200) {
      assert.ok((vague.body.confidence as number) < (exact.body.confidence as number));
    }
    assert.equal(exact.body.confidence_debug, undefined);
    const exactDebug = await classify({ title: "Registered Nurse", debug: true });
    assert.ok(exactDebug.body.confidence_debug && exactDebug.body.decision);

    // Input that grounds nothing: analyze answers 200 with no results, classify 422.
    const none = await analyze({ title: "xqzv plmk", debug: true });
    assert.equal(none.status, 200);
    assert.deepEqual(none.body.results, []);
    assert.equal(none.body.confidence, 0);
    assert.equal(none.body.confidence_band, "low");
    assert.equal(none.body.domain_grounding, "low");
    assert.equal((none.body.decision as Json).decision, "REJECT");
    const refused = await classify({ title: "xqzv plmk" });
    assert.equal(refused.status, 422);
    const issue = (refused.body.errors as { loc: string[]; type: string }[])[0];
    assert.deepEqual(issue.loc, ["body", "title"]);
    assert.equal(issue.type, "insufficient_input");
    assert.ok(!JSON.stringify(refused.body).includes("xqzv"), "no echo");

    // Bounds and auth as for candidates.
    assert.equal((await analyze({ title: "nurse", debug: "yes" })).status, 422);
    assert.equal((await classify({ description: "only a description" })).status, 422);
    const anonymous = await call(t, "POST", "/api/v1/job/analyze", { body: { title: "nurse" } });
    assert.equal(anonymous.status, 401);
  } finally {
    await t.cleanup();
  }
});
