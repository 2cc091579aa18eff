/** Keys, the credential matrix, contracts, usage views and feedback. */
import assert from "node:assert/strict";
import { testApp, testClock } from "./helpers.ts";
import { call, signUp, type TestApp } from "./platform.ts";
import { isWellFormedKey } from "../serve/platform/keys.ts";
import { hashKey, KeyStore, requireEntitlement } from "../serve/platform/auth.ts";
import { runtimeMiddleware } from "../serve/platform/mod.ts";

async function withApp(
  fn: (t: TestApp, clock: ReturnType<typeof testClock>) => Promise<void>,
  env: Record<string, string> = {},
) {
  const clock = testClock();
  const t = await testApp({ clock: clock.now, env });
  try {
    await fn(t, clock);
  } finally {
    await t.cleanup();
  }
}

const KEYS = "/api/v1/platform/api-keys";

Deno.test("api keys: created once in the documented format, stored hashed, listed as metadata", () =>
  withApp(async (t) => {
    const { token, key } = await signUp(t);
    assert.ok(isWellFormedKey(key));
    assert.match(key, /^oik_[0-9A-Za-z]{38}$/);
    const rows = await t.database.db.selectFrom("api_keys").selectAll().execute();
    assert.equal(rows.length, 1);
    assert.ok(!JSON.stringify(rows).includes(key), "the raw key is not stored");

    const list = await call(t, "GET", KEYS, { bearer: token });
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 1);
    const meta = list.body[0] as Record<string, unknown>;
    assert.deepEqual(Object.keys(meta).sort(), [
      "contract_id",
      "created_at",
      "entitlements",
      "key_id",
      "last_four",
      "last_used_at",
      "name",
      "prefix",
      "revoked_at",
      "status",
    ]);
    assert.equal(meta.prefix, key.slice(0, 8));
    assert.equal(meta.last_four, key.slice(-4));
    assert.ok(!JSON.stringify(list.body).includes(key));

    const byId = await call(t, "GET", `${KEYS}/${meta.key_id}`, { bearer: token });
    const byName = await call(t, "GET", `${KEYS}/production`, { bearer: token });
    assert.deepEqual(byId.body, meta);
    assert.deepEqual(byName.body, meta);
    assert.equal((await call(t, "GET", `${KEYS}/nope`, { bearer: token })).status, 404);
    assert.equal((await call(t, "GET", `${KEYS}/999`, { bearer: token })).status, 404);
    const bad = await call(t, "GET", `${KEYS}/${encodeURIComponent("-bad!")}`, { bearer: token });
    assert.equal(bad.status, 422);
    assert.deepEqual((bad.body.errors as { loc: string[] }[])[0].loc, ["path", "key_ref"]);

    const dup = await call(t, "POST", `${KEYS}/create`, {
      bearer: token,
      body: { name: "production" },
    });
    assert.equal(dup.status, 409);
    for (const name of ["", "12345", "x".repeat(65), "-lead", "bad/char"]) {
      const response = await call(t, "POST", `${KEYS}/create`, { bearer: token, body: { name } });
      assert.equal(response.status, 422, name);
      assert.equal((response.body.errors as { loc: string[] }[])[0].loc[1], "name");
    }
    const notInContract = await call(t, "POST", `${KEYS}/create`, {
      bearer: token,
      body: { name: "grounding", entitlements: ["customer_grounding"] },
    });
    assert.equal(notInContract.status, 403);
  }));

Deno.test("api keys: revocation is final and immediate on this instance; names can be reused", () =>
  withApp(async (t) => {
    const { token, key } = await signUp(t);
    assert.equal((await call(t, "GET", "/api/v1/health", { bearer: key })).status, 200);
    const revoked = await call(t, "POST", `${KEYS}/revoke`, {
      bearer: token,
      body: { key_ref: "production" },
    });
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.status, "revoked");
    const after = await call(t, "GET", "/api/v1/health", { bearer: key });
    assert.equal(after.status, 401, "refused at once although the lookup was cached");
    assert.match(after.headers.get("www-authenticate") ?? "", /invalid_token/);
    const again = await call(t, "POST", `${KEYS}/revoke`, {
      bearer: token,
      body: { key_id: revoked.body.key_id },
    });
    assert.equal(again.status, 200);
    assert.equal(again.body.revoked_at, revoked.body.revoked_at);

    const fresh = await call(t, "POST", `${KEYS}/create`, {
      bearer: token,
      body: { name: "production" },
    });
    assert.equal(fresh.status, 200);
    const byName = await call(t, "GET", `${KEYS}/production`, { bearer: token });
    assert.equal(byName.body.key_id, fresh.body.key_id, "the name finds the live key");
    assert.equal(
      (await call(t, "GET", "/api/v1/health", { bearer: fresh.body.key as string })).status,
      200,
    );

    for (const body of [{}, { key_ref: "a", key_id: 1 }, { key_id: "one" }]) {
      assert.equal((await call(t, "POST", `${KEYS}/revoke`, { bearer: token, body })).status, 422);
    }
    assert.equal(
      (await call(t, "POST", `${KEYS}/revoke`, { bearer: token, body: { key_ref: "ghost" } }))
        .status,
      404,
    );
  }));

Deno.test("credential matrix: 401 with a challenge for missing or bad, 403 for the wrong kind", () =>
  withApp(async (t, clock) => {
    const { token, key } = await signUp(t);
    const runtime = (bearer?: string, headers: Record<string, string> = {}) =>
      call(t, "GET", "/api/v1/health", { bearer, headers });

    const none = await runtime();
    assert.equal(none.status, 401);
    assert.equal(none.headers.get("www-authenticate"), 'Bearer realm="runtime"');
    assert.equal(none.body.code, "unauthorized");
    assert.equal((await runtime(undefined, { "x-api-key": key })).status, 401, "no vendor headers");
    assert.equal((await runtime(undefined, { authorization: `Token ${key}` })).status, 401);
    assert.equal((await runtime("garbage")).status, 401);
    const typo = key.slice(0, 10) + (key[10] === "a" ? "b" : "a") + key.slice(11);
    assert.equal((await runtime(typo)).status, 401, "checksum catches a typo");
    const wrongKind = await runtime(token);
    assert.equal(wrongKind.status, 403);
    assert.match(wrongKind.body.detail as string, /management tokens are not accepted/);

    const managementGets = [
      KEYS,
      `${KEYS}/production`,
      "/api/v1/platform/usage",
      "/api/v1/platform/usage/daily",
      "/api/v1/platform/usage/monthly",
      "/api/v1/platform/contracts",
      "/api/v1/platform/contracts/current",
      "/api/v1/platform/rate-limit-status",
      "/api/v1/platform/feedback",
      "/api/v1/platform/feedback/1",
    ];
    for (const path of managementGets) {
      const anonymous = await call(t, "GET", path);
      assert.equal(anonymous.status, 401, path);
      assert.match(anonymous.headers.get("www-authenticate") ?? "", /^Bearer realm="management"/);
      assert.equal((await call(t, "GET", path, { bearer: key })).status, 403, path);
    }
    for (const path of [`${KEYS}/create`, `${KEYS}/revoke`, "/api/v1/platform/feedback"]) {
      assert.equal((await call(t, "POST", path, { body: {} })).status, 401, path);
      const withKey = await call(t, "POST", path, { bearer: key, body: {} });
      assert.equal(withKey.status, 403, `${path}: runtime keys are refused before validation`);
    }
    // The signature's first character: six bits of it, so the forgery always differs.
    const signatureAt = token.lastIndexOf(".") + 1;
    const forged = token.slice(0, signatureAt) + (token[signatureAt] === "A" ? "B" : "A") +
      token.slice(signatureAt + 1);
    assert.equal((await call(t, "GET", KEYS, { bearer: forged })).status, 401);

    // A contract past its end: the key is known but no longer allowed.
    clock.advance(91 * 86_400_000);
    const expired = await runtime(key);
    assert.equal(expired.status, 403);
    assert.match(expired.body.detail as string, /expired/);
  }, { KEY_CACHE_TTL_MS: "0" }));

Deno.test("entitlements: the contract's flow into keys; a route can require one", async () => {
  const clock = testClock();
  const t = await testApp({
    clock: clock.now,
    env: { BETA_ENTITLEMENTS: "customer_grounding" },
  });
  const runtime = runtimeMiddleware(t.platform);
  t.app.get(
    "/test/grounding",
    runtime,
    requireEntitlement("customer_grounding"),
    (c) => c.text("ok"),
  );
  t.app.get(
    "/test/packs",
    runtime,
    requireEntitlement("workforce_evidence_packs"),
    (c) => c.text("ok"),
  );
  try {
    const { token, key } = await signUp(t);
    const plain = await call(t, "POST", `${KEYS}/create`, {
      bearer: token,
      body: { name: "no-grounding", entitlements: [] },
    });
    assert.deepEqual(plain.body.entitlements, []);
    const get = (path: string, k: string) =>
      t.app.request(path, { headers: { authorization: `Bearer ${k}` } });
    assert.equal((await get("/test/grounding", key)).status, 200);
    const packs = await get("/test/packs", key);
    assert.equal(packs.status, 403);
    assert.match((await packs.json()).detail, /workforce_evidence_packs/);
    assert.equal((await get("/test/grounding", plain.body.key as string)).status, 403);
  } finally {
    await t.cleanup();
  }
});

Deno.test("contracts, rate-limit status and usage views report what runtime calls did", () =>
  withApp(async (t) => {
    const { token, key } = await signUp(t);
    for (let i = 0; i < 3; i++) await call(t, "GET", "/api/v1/health", { bearer: key });
    await call(t, "GET", "/api/v1/health", { bearer: "oik_" + "A".repeat(38) }); // not metered

    const contracts = await call(t, "GET", "/api/v1/platform/contracts", { bearer: token });
    assert.equal(contracts.body.length, 1);
    const current = await call(t, "GET", "/api/v1/platform/contracts/current", { bearer: token });
    assert.deepEqual(current.body, contracts.body[0]);
    assert.equal(current.body.status, "trial");
    assert.equal(current.body.concurrency_limit, 4);

    const status = await call(t, "GET", "/api/v1/platform/rate-limit-status", { bearer: token });
    assert.equal(status.status, 200);
    const rate = status.body.rate as Record<string, number>;
    const quota = status.body.quota as Record<string, number>;
    assert.deepEqual([rate.limit, rate.used, rate.remaining], [60, 3, 57]);
    assert.deepEqual([quota.limit, quota.used, quota.remaining], [10_000, 3, 9_997]);
    assert.deepEqual(status.body.concurrency, { limit: 4, in_use: 0 });

    const health = await call(t, "GET", "/api/v1/health", { bearer: key });
    assert.equal(
      health.headers.get("ratelimit-policy"),
      '"minute";q=60;w=60, "month";q=10000;w=2592000',
    );
    assert.match(
      health.headers.get("ratelimit") ?? "",
      /^"minute";r=56;t=\d+, "month";r=9996;t=\d+$/,
    );

    const daily = await call(t, "GET", "/api/v1/platform/usage/daily", { bearer: token });
    assert.equal(daily.body.period, "day");
    assert.equal(daily.body.total_requests, 4);
    assert.deepEqual(
      (daily.body.by_route as Record<string, unknown>[]).map((
        r,
      ) => [r.method, r.route, r.status, r.requests]),
      [["GET", "/api/v1/health", 200, 4]],
    );
    const monthly = await call(t, "GET", "/api/v1/platform/usage/monthly", { bearer: token });
    assert.equal(monthly.body.total_requests, 4);
    assert.equal(monthly.body.from, "2026-11-01T00:00:00.000Z");
    const history = await call(t, "GET", "/api/v1/platform/usage", { bearer: token });
    assert.equal(history.body.total_requests, 4);
    assert.deepEqual((history.body.days as { date: string }[]).map((d) => d.date), ["2026-11-21"]);

    const keyMeta = await call(t, "GET", `${KEYS}/production`, { bearer: token });
    assert.equal(keyMeta.body.last_used_at, "2026-11-21T12:00:00.000Z");
  }));

Deno.test("feedback: create, list and read own; another account's is 404; bad input 422", () =>
  withApp(async (t) => {
    const ada = await signUp(t, "ada@example.com");
    const bob = await signUp(t, "bob@example.com");
    const created = await call(t, "POST", "/api/v1/platform/feedback", {
      bearer: ada.token,
      body: {
        category: "accuracy",
        message: "Nurse titles rank well",
        rating: 5,
        related_request_id: "req-12345678",
      },
    });
    assert.equal(created.status, 200);
    assert.deepEqual(Object.keys(created.body).sort(), [
      "category",
      "created_at",
      "feedback_id",
      "message",
      "rating",
      "related_request_id",
    ]);
    const id = created.body.feedback_id;
    assert.equal(
      (await call(t, "GET", `/api/v1/platform/feedback/${id}`, { bearer: ada.token })).status,
      200,
    );
    assert.equal(
      (await call(t, "GET", `/api/v1/platform/feedback/${id}`, { bearer: bob.token })).status,
      404,
    );
    assert.equal(
      (await call(t, "GET", "/api/v1/platform/feedback", { bearer: ada.token })).body.length,
      1,
    );
    assert.equal(
      (await call(t, "GET", "/api/v1/platform/feedback", { bearer: bob.token })).body.length,
      0,
    );
    assert.equal(
      (await call(t, "GET", "/api/v1/platform/feedback/abc", { bearer: ada.token })).status,
      422,
    );

    const secret = "my private remark " + "z".repeat(5000);
    const bad = await call(t, "POST", "/api/v1/platform/feedback", {
      bearer: ada.token,
      body: { category: "gossip", message: secret, rating: 9 },
    });
    assert.equal(bad.status, 422);
    assert.deepEqual(
      (bad.body.errors as { loc: string[] }[]).map((e) => e.loc.join(".")).sort(),
      ["body.category", "body.message", "body.rating"],
    );
    assert.ok(!JSON.stringify(bad.body).includes("private remark"));

    // The simplest client sends only a message; the category defaults to "other".
    const plain = await call(t, "POST", "/api/v1/platform/feedback", {
      bearer: ada.token,
      body: { message: "Just a note" },
    });
    assert.equal(plain.status, 200);
    assert.equal(plain.body.category, "other");
  }));

Deno.test("openapi documents every platform route with its security scheme", () =>
  withApp(async (t) => {
    const doc = await (await t.app.request("/openapi.json")).json();
    const paths = [
      ["post", "/api/v1/platform/register", null],
      ["post", "/api/v1/platform/login", null],
      ["get", "/api/v1/platform/verify-email", null],
      ["post", "/api/v1/platform/verify-email", null],
      ["post", "/api/v1/platform/resend-verification", null],
      ["post", "/api/v1/platform/forgot-password", null],
      ["post", "/api/v1/platform/reset-password", null],
      ["post", "/api/v1/platform/api-keys/create", "managementToken"],
      ["post", "/api/v1/platform/api-keys/revoke", "managementToken"],
      ["get", "/api/v1/platform/api-keys", "managementToken"],
      ["get", "/api/v1/platform/api-keys/{key_ref}", "managementToken"],
      ["get", "/api/v1/platform/usage", "managementToken"],
      ["get", "/api/v1/platform/usage/daily", "managementToken"],
      ["get", "/api/v1/platform/usage/monthly", "managementToken"],
      ["get", "/api/v1/platform/contracts", "managementToken"],
      ["get", "/api/v1/platform/contracts/current", "managementToken"],
      ["get", "/api/v1/platform/rate-limit-status", "managementToken"],
      ["get", "/api/v1/platform/feedback", "managementToken"],
      ["post", "/api/v1/platform/feedback", "managementToken"],
      ["get", "/api/v1/platform/feedback/{feedback_id}", "managementToken"],
      ["get", "/api/v1/health", "runtimeKey"],
    ] as const;
    for (const [method, path, scheme] of paths) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path} documented`);
      assert.deepEqual(op.security, scheme ? [{ [scheme]: [] }] : [], path);
    }
  }));

Deno.test("key cache: concurrent misses share one read; a revocation during a read is not cached", async () => {
  const t = await testApp({ build: false });
  try {
    const { key } = await signUp(t);
    const store = new KeyStore(t.database.db, 60_000);
    let reads = 0;
    const db = t.database.db;
    const selectFrom = db.selectFrom.bind(db);
    Object.assign(db, {
      selectFrom: (...args: Parameters<typeof selectFrom>) => (reads++, selectFrom(...args)),
    });
    const shared = new KeyStore(db, 60_000);
    const records = await Promise.all(
      Array.from({ length: 20 }, () => shared.lookup(hashKey(key))),
    );
    assert.equal(reads, 1);
    assert.ok(records.every((r) => r?.status === "active"));
    Object.assign(db, { selectFrom });

    const reading = store.lookup(hashKey(key)); // starts a read of the still-active key
    store.invalidate(hashKey(key)); // the key is revoked meanwhile
    assert.equal((await reading)?.status, "active");
    await t.database.db.updateTable("api_keys").set({ status: "revoked" }).execute();
    assert.equal(
      (await store.lookup(hashKey(key)))?.status,
      "revoked",
      "the stale read was not cached",
    );
  } finally {
    await t.cleanup();
  }
});

Deno.test("hostile input: wrong media type 415, NUL in text 422, malformed key on management 401", () =>
  withApp(async (t) => {
    const { token } = await signUp(t);
    for (const headers of [{ "content-type": "text/plain" }, {}] as Record<string, string>[]) {
      const response = await t.app.request("/api/v1/platform/login", {
        method: "POST",
        headers,
        body: '{"email":"ada@example.com","password":"x"}',
      });
      assert.equal(response.status, 415, JSON.stringify(headers));
      assert.equal((await response.json()).code, "unsupported_media_type");
    }
    assert.ok(!t.logger.lines.some((l) => l.msg === "unhandled error"), "nothing logged as a 500");
    const nul = await call(t, "POST", "/api/v1/platform/feedback", {
      bearer: token,
      body: { category: "bug", message: "a\u0000b" },
    });
    assert.equal(nul.status, 422);
    const multiline = await call(t, "POST", "/api/v1/platform/feedback", {
      bearer: token,
      body: { category: "bug", message: "line one\nline two\ttabbed" },
    });
    assert.equal(multiline.status, 200);
    for (const email of ["ab@example.com/../x", "ab@example.com:25", "ab@ex%41mple.com"]) {
      const response = await call(t, "POST", "/api/v1/platform/forgot-password", {
        body: { email },
      });
      assert.equal(response.status, 422, email);
    }
    const malformed = await call(t, "GET", KEYS, { bearer: "oik_nope" });
    assert.equal(malformed.status, 401);
    const basic = await call(t, "GET", "/api/v1/health", {
      headers: { authorization: "Basic eDp5" },
    });
    assert.equal(basic.status, 401);
    assert.equal(basic.headers.get("www-authenticate"), 'Bearer realm="runtime"');
  }));
