/**
 * The console's in-memory copies (sessions, keys, feedback, usage figures) never outlive what
 * ends or changes them on the same instance: a password reset (console or API) ends kept
 * sessions at once, a revoked or created key and sent feedback show at once, a call shows on
 * a usage page viewed just before it, and a key created on one replica is shown once on
 * another. The test clock stands still, so nothing here passes by a copy expiring.
 */
import assert from "node:assert/strict";
import { testApp, testClock, tokenFromEmail } from "./helpers.ts";
import { consoleSignIn, CookieJar, csrfOf, getPage, postForm, submit } from "./console.ts";
import { call, type TestApp } from "./platform.ts";
import { SESSION_CACHE_MS } from "../serve/console/session.ts";

const NEW_PASSWORD = "quartz-meadow-lantern-77";

async function withApp(
  fn: (t: TestApp, clock: ReturnType<typeof testClock>) => Promise<void>,
  build = false,
) {
  const clock = testClock();
  const t = await testApp({ build, clock: clock.now });
  try {
    await fn(t, clock);
  } finally {
    await t.cleanup();
  }
}

/** The token of the newest reset email. */
async function resetToken(t: TestApp): Promise<string> {
  const mail = (await t.outbox()).filter((m) => m.kind === "reset_password").at(-1);
  assert.ok(mail, "a reset email");
  return tokenFromEmail(mail.text);
}

Deno.test("a console password reset ends the account's kept sessions at once", () =>
  withApp(async (t) => {
    const jar = await consoleSignIn(t);
    assert.equal((await getPage(t, jar, "/console/keys")).status, 200, "kept now");
    await submit(t, new CookieJar(), "/console/forgot", "/console/forgot", {
      email: "ada@example.com",
    });
    const token = await resetToken(t);
    const reset = await submit(
      t,
      new CookieJar(),
      `/console/reset?token=${token}`,
      "/console/reset",
      {
        token,
        password: NEW_PASSWORD,
        confirm: NEW_PASSWORD,
      },
    );
    assert.equal(reset.location, "/console/login?notice=password_reset");
    const after = await getPage(t, jar, "/console/keys");
    assert.equal(after.status, 303, "no clock moved: the kept session was dropped");
    assert.equal(after.location, "/console/login?notice=session_ended");
  }));

Deno.test("an API password reset ends the account's kept console sessions at once", () =>
  withApp(async (t) => {
    const jar = await consoleSignIn(t);
    const other = await consoleSignIn(t, "grace@example.com");
    assert.equal((await getPage(t, jar, "/console/usage")).status, 200);
    assert.equal((await getPage(t, other, "/console/usage")).status, 200);
    const asked = await call(t, "POST", "/api/v1/platform/forgot-password", {
      body: { email: "ada@example.com" },
    });
    assert.equal(asked.status, 200);
    const reset = await call(t, "POST", "/api/v1/platform/reset-password", {
      body: { token: await resetToken(t), new_password: NEW_PASSWORD },
    });
    assert.equal(reset.status, 200);
    assert.equal((await getPage(t, jar, "/console/usage")).status, 303, "ended at once");
    assert.equal((await getPage(t, other, "/console/usage")).status, 200, "others keep theirs");
  }));

Deno.test("keys and feedback pages show this instance's changes at once", () =>
  withApp(async (t) => {
    const jar = await consoleSignIn(t);
    assert.match((await getPage(t, jar, "/console/keys")).html, /No keys yet/);
    const created = await submit(t, jar, "/console/keys", "/console/keys", { name: "staging" });
    assert.equal(created.status, 303);
    const shown = await getPage(t, jar, "/console/keys?notice=created");
    assert.match(shown.html, /shown only this once/);
    assert.match(shown.html, /<span class="status active">active<\/span>/);
    const row = await t.database.db.selectFrom("api_keys").select("id").executeTakeFirstOrThrow();
    const confirm = await getPage(t, jar, `/console/keys/${row.id}/revoke`);
    const revoked = await postForm(t, jar, `/console/keys/${row.id}/revoke`, {
      _csrf: csrfOf(confirm.html),
    });
    assert.equal(revoked.status, 303);
    const after = await getPage(t, jar, "/console/keys");
    assert.ok(!after.html.includes('class="status active"'), "no key is listed as active");
    assert.match(after.html, /<span class="status revoked">revoked<\/span>/);
    assert.ok(!after.html.includes(`/console/keys/${row.id}/revoke`), "no revoke link left");

    assert.match((await getPage(t, jar, "/console/feedback")).html, /Send feedback/);
    const before = (await getPage(t, jar, "/console/feedback")).html;
    assert.ok(!before.includes("kept copies are fine"));
    const sent = await submit(t, jar, "/console/feedback", "/console/feedback", {
      category: "other",
      message: "kept copies are fine",
    });
    assert.equal(sent.status, 303, sent.html);
    assert.match((await getPage(t, jar, "/console/feedback")).html, /kept copies are fine/);
  }));

Deno.test("a call shows on the usage page at once, even just after a view", () =>
  withApp(async (t) => {
    const jar = await consoleSignIn(t);
    await submit(t, jar, "/console/keys", "/console/keys", { name: "usage" });
    const key = (await getPage(t, jar, "/console/keys")).html
      .match(/value="(oik_[A-Za-z0-9]+)"/)?.[1];
    assert.ok(key);
    assert.match((await getPage(t, jar, "/console/usage")).html, /Last 30 days: 0 requests/);
    const api = await call(t, "POST", "/api/v1/occupation/candidates", {
      bearer: key,
      body: { title: "Registered Nurse", limit: 3 },
    });
    assert.equal(api.status, 200);
    assert.match((await getPage(t, jar, "/console/usage")).html, /Last 30 days: 1 requests/);
  }, true));

Deno.test("replicas: a key created on one is shown once on another; a log-out elsewhere ends within the kept time", async () => {
  const clock = testClock();
  const a = await testApp({ build: false, clock: clock.now });
  const b = await testApp({ build: false, clock: clock.now, database: a.database });
  try {
    const jar = await consoleSignIn(a);
    assert.equal((await getPage(a, jar, "/console/keys")).status, 200, "kept on a");
    assert.equal((await getPage(b, jar, "/console/keys")).status, 200, "kept on b");
    const created = await submit(b, jar, "/console/keys", "/console/keys", { name: "replica" });
    assert.equal(created.location, "/console/keys?notice=created#new-key");
    const shown = await getPage(a, jar, "/console/keys?notice=created");
    assert.match(shown.html, /shown only this once/, "a reads the flash b wrote");
    assert.match(shown.html, /value="oik_[A-Za-z0-9]+"/);

    const stolen = jar.header();
    const out = await submit(b, jar, "/console/keys", "/console/logout", {});
    assert.equal(out.location, "/console/login?notice=logged_out");
    const replay = () => a.app.request("/console/keys", { headers: { cookie: stolen } });
    assert.equal((await replay()).status, 303, "a read the session again (the flash): ended");
    // Documented: a kept copy on a, read before b's log-out, lasts at most SESSION_CACHE_MS.
    const again = await submit(b, new CookieJar(), "/console/login", "/console/login", {
      email: "ada@example.com",
      password: "violet-harbour-lantern-42",
    });
    assert.equal(again.status, 303);
    const jar2 = new CookieJar();
    jar2.take(again.headers);
    const cookie = `${jar2.header()}`;
    const view = () => a.app.request("/console/try", { headers: { cookie } });
    assert.equal((await view()).status, 200, "kept on a");
    const form = await b.app.request("/console/try", { headers: { cookie } });
    const csrf = csrfOf(await form.text());
    const logout = await b.app.request("/console/logout", {
      method: "POST",
      headers: {
        cookie,
        origin: "http://localhost",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ _csrf: csrf }).toString(),
    });
    assert.equal(logout.status, 303);
    clock.advance(SESSION_CACHE_MS);
    assert.equal((await view()).status, 303, "refused on a once its copy is SESSION_CACHE_MS old");
  } finally {
    await b.cleanup();
    await a.cleanup();
  }
});
