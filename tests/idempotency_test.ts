/**
 * Idempotency-Key on the creating POSTs: replay of the first answer, 422 on a different
 * request, per-account scope, 24-hour lifetime, malformed keys; key creation, feedback,
 * evidence packs and grounding sources.
 */
import assert from "node:assert/strict";
import { testApp, testClock } from "./helpers.ts";
import { call, loginToken, signUp } from "./platform.ts";
import { runAdminCommand } from "../serve/platform/admin.ts";

Deno.test("Idempotency-Key replays the first answer and refuses a different request", async () => {
  const clock = testClock("2026-11-24T12:00:00.000Z");
  const app = await testApp({ evidence: true, clock: clock.now });
  try {
    const ada = await signUp(app);
    for (const entitlement of ["workforce_evidence_packs", "customer_grounding"] as const) {
      await runAdminCommand(app.database.db, {
        kind: "entitlements",
        email: ada.email,
        action: "add",
        entitlement,
      }, clock.now());
    }
    const post = (path: string, bearer: string, body: unknown, key?: string) =>
      call(app, "POST", path, {
        bearer,
        body,
        headers: key === undefined ? {} : { "idempotency-key": key },
      });

    // Key creation (management token): the raw key is shown once, and replayed to the retry.
    const first = await post("/api/v1/platform/api-keys/create", ada.token, { name: "ci" }, "k-1");
    assert.equal(first.status, 200);
    const again = await post("/api/v1/platform/api-keys/create", ada.token, { name: "ci" }, "k-1");
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    const other = await post("/api/v1/platform/api-keys/create", ada.token, { name: "cd" }, "k-1");
    assert.equal(other.status, 422);
    assert.equal(other.body.code, "idempotency_key_reused");
    // Without the header, the same body is a new request (a live key of that name exists: 409).
    assert.equal(
      (await post("/api/v1/platform/api-keys/create", ada.token, { name: "ci" }))
        .status,
      409,
    );
    const key = first.body.key as string;
    // The kept answer is encrypted: the raw key is not in the database in clear.
    const kept = await app.database.db.selectFrom("idempotency_keys").select("response_body")
      .execute();
    assert.ok(kept.length > 0 && kept.every((r) => !String(r.response_body).includes(key)));

    // Feedback: one row for two sends with one key.
    const fb = { message: "the shortlist missed pastry chefs" };
    const f1 = await post("/api/v1/platform/feedback", ada.token, fb, "fb-1");
    const f2 = await post("/api/v1/platform/feedback", ada.token, fb, "fb-1");
    assert.equal(f1.status, 200);
    assert.deepEqual(f2.body, f1.body);
    const listed = await call(app, "GET", "/api/v1/platform/feedback", { bearer: ada.token });
    const items = (listed.body.items ?? listed.body.feedback ?? listed.body) as unknown[];
    assert.equal(items.length, 1);

    // Evidence packs: the 201 is replayed as the same 201.
    const pack = { soc_code: "15-1252", country_code: "US" };
    const p1 = await post("/api/v1/workforce/evidence-packs", key, pack, "pack-1");
    assert.equal(p1.status, 201);
    const p2 = await post("/api/v1/workforce/evidence-packs", key, pack, "pack-1");
    assert.equal(p2.status, 201);
    assert.deepEqual(p2.body, p1.body);
    assert.equal(
      (await post(
        "/api/v1/workforce/evidence-packs",
        key,
        { ...pack, sections: ["tasks"] },
        "pack-1",
      ))
        .status,
      422,
    );

    // Grounding sources: a retry does not hit "source_id taken".
    const src = { source_id: "handbook", title: "Handbook" };
    assert.equal((await post("/api/v1/grounding/sources", key, src, "src-1")).status, 200);
    const s2 = await post("/api/v1/grounding/sources", key, src, "src-1");
    assert.equal(s2.status, 200);
    assert.equal(s2.headers.get("idempotent-replayed"), "true");
    assert.equal((await post("/api/v1/grounding/sources", key, src)).status, 409);

    // A failed request is not remembered: fixing it and retrying with the key runs it.
    const bad = await post("/api/v1/grounding/sources", key, { title: "" }, "src-2");
    assert.equal(bad.status, 422);
    assert.equal(
      (await post("/api/v1/grounding/sources", key, { title: "Fixed" }, "src-2")).status,
      200,
    );

    // Malformed keys are 422 at the header.
    for (const malformed of ["", "x".repeat(256), "has space"]) {
      const r = await post("/api/v1/platform/feedback", ada.token, fb, malformed);
      assert.equal(r.status, 422, JSON.stringify(malformed));
      assert.deepEqual((r.body.errors as { loc: string[] }[])[0].loc, [
        "header",
        "idempotency-key",
      ]);
    }

    // Keys are per account: another account's "fb-1" is its own.
    const grace = await signUp(app, "grace@example.com", "other");
    const g1 = await post("/api/v1/platform/feedback", grace.token, { message: "hello" }, "fb-1");
    assert.equal(g1.status, 200);
    assert.equal(g1.headers.get("idempotent-replayed"), null);

    // After 24 hours the key is forgotten: the same key with another body runs.
    clock.advance(24 * 60 * 60 * 1000 + 1);
    const token = await loginToken(app, ada.email); // the first token expired meanwhile
    const later = await post("/api/v1/platform/feedback", token, { message: "new" }, "fb-1");
    assert.equal(later.status, 200);
    assert.notEqual(later.body.feedback_id ?? later.body.id, f1.body.feedback_id ?? f1.body.id);
  } finally {
    await app.cleanup();
  }
});
