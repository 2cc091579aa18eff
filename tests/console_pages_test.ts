/**
 * The console's core flows with JavaScript off (plain form posts, post-redirect-get): keys
 * (created and shown once, listed, revoked after a confirmation), usage showing a call,
 * feedback, and bad input answered with 4xx pages that tie errors to fields and echo nothing.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers.ts";
import { consoleSignIn, CookieJar, csrfOf, getPage, postForm, submit } from "./console.ts";
import { call, PASSWORD, type TestApp } from "./platform.ts";

async function withApp(fn: (t: TestApp) => Promise<void>, build = false) {
  const t = await testApp({ build });
  try {
    await fn(t);
  } finally {
    await t.cleanup();
  }
}

Deno.test("JS off: create a key (shown once), use it, see usage, revoke it, send feedback", () =>
  withApp(async (t) => {
    const jar = await consoleSignIn(t);
    const empty = await getPage(t, jar, "/console/keys");
    assert.match(empty.html, /No keys yet/);
    const created = await submit(t, jar, "/console/keys", "/console/keys", { name: "production" });
    assert.equal(created.status, 303);
    assert.equal(created.location, "/console/keys?notice=created#new-key");
    const shown = await getPage(t, jar, "/console/keys");
    const key = shown.html.match(/id="new-key-value"[^>]*value="(oik_[A-Za-z0-9]+)"/)?.[1] ??
      shown.html.match(/value="(oik_[A-Za-z0-9]+)"/)?.[1];
    assert.ok(key, "the new key is on the page once");
    assert.match(shown.html, /shown only this once/);
    const again = await getPage(t, jar, "/console/keys");
    assert.ok(!again.html.includes(key), "a second view does not show it");
    assert.match(again.html, new RegExp(`${key.slice(0, 8)}…${key.slice(-4)}`));

    const api = await call(t, "POST", "/api/v1/occupation/candidates", {
      bearer: key,
      body: { title: "Registered Nurse", limit: 3 },
    });
    assert.equal(api.status, 200);
    const usage = await getPage(t, jar, "/console/usage");
    assert.equal(usage.status, 200);
    assert.match(usage.html, /Last 30 days: 1 requests/);
    assert.match(
      usage.html,
      /<th scope="row" class="mono">\/api\/v1\/occupation\/candidates<\/th>/,
    );
    assert.match(usage.html, /1 of 10,000/, "the month against the quota");
    assert.match(usage.html, /60 \/ minute/);
    assert.match(usage.html, /<svg class="chart"[^>]*role="img"/);

    const row = await t.database.db.selectFrom("api_keys").select("id").executeTakeFirstOrThrow();
    const confirm = await getPage(t, jar, `/console/keys/${row.id}/revoke`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.html, /cannot be undone/);
    const revoked = await postForm(t, jar, `/console/keys/${row.id}/revoke`, {
      _csrf: csrfOf(confirm.html),
    });
    assert.equal(revoked.location, "/console/keys?notice=revoked");
    const after = await call(t, "POST", "/api/v1/occupation/candidates", {
      bearer: key,
      body: { title: "Registered Nurse" },
    });
    assert.equal(after.status, 401, "the revoked key is refused");
    assert.match((await getPage(t, jar, "/console/keys?notice=revoked")).html, /was revoked/);

    const requestId = api.headers.get("x-request-id")!;
    const prefilled = await getPage(
      t,
      jar,
      `/console/feedback?related_request_id=${encodeURIComponent(requestId)}`,
    );
    assert.match(prefilled.html, new RegExp(`value="${requestId}"`));
    const sent = await postForm(t, jar, "/console/feedback", {
      _csrf: csrfOf(prefilled.html),
      category: "accuracy",
      message: "The second candidate looks wrong.",
      rating: "3",
      related_request_id: requestId,
    });
    assert.equal(sent.location, "/console/feedback?notice=sent");
    const list = await getPage(t, jar, "/console/feedback?notice=sent");
    assert.match(list.html, /your feedback was sent/);
    assert.match(list.html, /The second candidate looks wrong\./);
    const stored = await call(t, "POST", "/api/v1/platform/login", {
      body: { email: "ada@example.com", password: PASSWORD },
    });
    const mine = await call(t, "GET", "/api/v1/platform/feedback", {
      bearer: stored.body.access_token as string,
    });
    assert.equal((mine.body[0] as { related_request_id: string }).related_request_id, requestId);
  }, true));

Deno.test("JS off: bad input is a 4xx page with errors tied to fields, nothing echoed", () =>
  withApp(async (t) => {
    const junk = "<b>zz-not-an-email</b>";
    const signup = await submit(t, new CookieJar(), "/console/signup", "/console/signup", {
      email: junk,
      password: "short",
      full_name: "Ada",
      company_name: "",
    });
    assert.equal(signup.status, 422);
    assert.ok(!signup.html.includes("zz-not-an-email"), "the bad email is not echoed");
    assert.ok(!signup.html.includes('value="short"'), "passwords are never echoed");
    for (const field of ["email", "password", "company_name"]) {
      assert.match(signup.html, new RegExp(`id="${field}-error"`), field);
      assert.match(
        signup.html,
        new RegExp(
          `id="${field}"[^>]*aria-invalid="true"[^>]*aria-describedby="[^"]*${field}-error`,
        ),
        field,
      );
      assert.match(signup.html, new RegExp(`href="#${field}"`), `${field} in the summary`);
    }
    assert.match(signup.html, /value="Ada"/, "a valid field is kept");
    assert.match(signup.html, /Use at least 12 characters/);
    assert.equal((await t.outbox()).length, 0);

    const jar = await consoleSignIn(t);
    const badName = await submit(t, jar, "/console/keys", "/console/keys", { name: "!!" });
    assert.equal(badName.status, 422);
    assert.match(badName.html, /id="name-error"/);
    await submit(t, jar, "/console/keys", "/console/keys", { name: "prod" });
    await getPage(t, jar, "/console/keys");
    const taken = await submit(t, jar, "/console/keys", "/console/keys", { name: "prod" });
    assert.equal(taken.status, 409);
    assert.match(taken.html, /An active key already has this name/);

    const feedback = await submit(t, jar, "/console/feedback", "/console/feedback", {
      message: "   ",
      rating: "9",
      related_request_id: "<script>",
    });
    assert.equal(feedback.status, 422);
    assert.match(feedback.html, /id="message-error"/);
    assert.match(feedback.html, /id="rating-error"/);
    assert.ok(!feedback.html.includes("<script>"), "the bad request id is not echoed");
    const junkId = await getPage(t, jar, "/console/feedback?related_request_id=%3Cscript%3E");
    assert.ok(!junkId.html.includes("<script>"));

    assert.equal((await getPage(t, jar, "/console/keys/999/revoke")).status, 404);
    assert.equal((await getPage(t, jar, "/console/keys/abc/revoke")).status, 404);
    const bad = await getPage(t, new CookieJar(), "/console/verify?token=zz");
    assert.equal(bad.status, 200);
    assert.match(bad.html, /Open the link from your confirmation email/);
    const used = await submit(
      t,
      new CookieJar(),
      "/console/verify?token=aaaaaaaaaaaaaaaa",
      "/console/verify",
      {
        token: "aaaaaaaaaaaaaaaa",
      },
    );
    assert.equal(used.status, 400);
    assert.match(used.html, /not valid/);
    const reset = await submit(
      t,
      new CookieJar(),
      "/console/reset?token=aaaaaaaaaaaaaaaa",
      "/console/reset",
      {
        token: "aaaaaaaaaaaaaaaa",
        password: "quartz-meadow-lantern-77",
        confirm: "quartz-meadow-lantern-78",
      },
    );
    assert.equal(reset.status, 422);
    assert.match(reset.html, /The two passwords differ/);
  }));

Deno.test("JS off: signed-out visits to account pages redirect to log in; /console routes", () =>
  withApp(async (t) => {
    for (const path of ["/console/keys", "/console/usage", "/console/try", "/console/feedback"]) {
      const page = await getPage(t, new CookieJar(), path);
      assert.equal(page.status, 303, path);
      assert.equal(page.location, "/console/login");
    }
    assert.equal((await getPage(t, new CookieJar(), "/console")).location, "/console/login");
    const jar = await consoleSignIn(t);
    assert.equal((await getPage(t, jar, "/console")).location, "/console/keys");
    const tryIt = await getPage(t, jar, "/console/try");
    assert.match(tryIt.html, /<script type="module" nonce="[^"]+">/);
    assert.match(tryIt.html, /credentials: "omit"/, "the API call never carries the cookie");
    assert.match(tryIt.html, /<noscript>/);
    const openapi = await (await t.app.request("/openapi.json")).text();
    assert.ok(!openapi.includes("/console"), "console pages are not in the API description");
  }));
