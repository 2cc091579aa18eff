/**
 * Console sessions: cookie flags (https and http), idle expiry, absolute lifetime, log-out,
 * and a password reset ending every session of the account.
 */
import assert from "node:assert/strict";
import { testApp, testClock, tokenFromEmail } from "./helpers.ts";
import { consoleSignIn, CookieJar, getPage, submit } from "./console.ts";
import { SESSION_IDLE_MS, SESSION_LIFETIME_MS } from "../serve/console/mod.tsx";
import type { TestApp } from "./platform.ts";

async function withApp(
  fn: (t: TestApp, clock: ReturnType<typeof testClock>) => Promise<void>,
  env: Record<string, string> = {},
) {
  const clock = testClock();
  const t = await testApp({ build: false, clock: clock.now, env });
  try {
    await fn(t, clock);
  } finally {
    await t.cleanup();
  }
}

/** The Set-Cookie line of the session cookie the log-in answered with. */
async function loginCookie(t: TestApp): Promise<string> {
  const jar = await consoleSignIn(t);
  assert.ok([...jar.cookies.keys()].some((k) => k.includes("oi_console")));
  const login = await t.app.request("/console/login", { headers: { cookie: jar.header() } });
  assert.equal(login.status, 303, "a signed-in visit to log in goes to the keys");
  return jar.header();
}

Deno.test("console cookie: HttpOnly, Secure, SameSite=Strict, __Host- on https", () =>
  withApp(async (t) => {
    const jar = new CookieJar();
    const form = await getPage(t, jar, "/console/login");
    const pre = form.headers.getSetCookie().find((c) => c.startsWith("__Host-oi_console_pre="));
    assert.ok(pre, "a pre-session cookie for the form's CSRF token");
    assert.match(pre, /; HttpOnly/);
    assert.match(pre, /; Secure/);
    assert.match(pre, /; SameSite=Strict/);
    assert.match(pre, /; Path=\//);
    // Log in and read the session cookie's flags from the answer itself.
    const signed = await consoleSignIn(t, "grace@example.com");
    assert.ok(signed.cookies.has("__Host-oi_console"));
    const raw = new CookieJar();
    await getPage(t, raw, "/console/login");
    const csrf =
      (await getPage(t, raw, "/console/login")).html.match(/name="_csrf" value="([^"]+)"/)![1];
    const response = await t.app.request("/console/login", {
      method: "POST",
      headers: {
        cookie: raw.header(),
        origin: "http://localhost",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        _csrf: csrf,
        email: "grace@example.com",
        password: "violet-harbour-lantern-42",
      }).toString(),
    });
    assert.equal(response.status, 303);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__Host-oi_console="));
    assert.ok(cookie, "the session cookie");
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; Secure/);
    assert.match(cookie, /; SameSite=Strict/);
    assert.match(cookie, /; Path=\//);
    assert.match(cookie, new RegExp(`; Max-Age=${SESSION_LIFETIME_MS / 1000}`));
    assert.ok(!/Domain=/i.test(cookie), "host-only");
    const rows = await t.database.db.selectFrom("console_sessions").selectAll().execute();
    const value = cookie.split(";")[0].split("=")[1];
    assert.ok(!JSON.stringify(rows).includes(value), "only the id's hash is stored");
  }));

Deno.test("console cookie over plain http: no Secure flag and no __Host- prefix", () =>
  withApp(async (t) => {
    const jar = await consoleSignIn(t);
    assert.ok(jar.cookies.has("oi_console"));
    assert.ok(!jar.cookies.has("__Host-oi_console"));
    const page = await getPage(t, new CookieJar(), "/console/signup");
    const pre = page.headers.getSetCookie()[0];
    assert.match(pre, /^oi_console_pre=/);
    assert.ok(!/Secure/.test(pre));
    assert.match(pre, /HttpOnly/);
    assert.match(pre, /SameSite=Strict/);
  }, { PUBLIC_BASE_URL: "http://127.0.0.1:8000" }));

Deno.test("console session: ends after 30 minutes idle; activity keeps it alive", () =>
  withApp(async (t, clock) => {
    const cookie = await loginCookie(t);
    const keys = () => t.app.request("/console/keys", { headers: { cookie } });
    clock.advance(SESSION_IDLE_MS - 60_000);
    assert.equal((await keys()).status, 200, "29 minutes idle: still signed in");
    clock.advance(SESSION_IDLE_MS - 60_000);
    assert.equal((await keys()).status, 200, "the last visit restarted the idle clock");
    clock.advance(SESSION_IDLE_MS + 1000);
    const ended = await keys();
    assert.equal(ended.status, 303);
    assert.equal(ended.headers.get("location"), "/console/login?notice=session_ended");
    assert.ok(!(await ended.text()).includes("ada@example.com"));
    assert.equal(
      (await t.database.db.selectFrom("console_sessions").selectAll().execute()).length,
      0,
      "the ended session's row is gone",
    );
  }));

Deno.test("console session: ends 12 hours after sign-in however busy", () =>
  withApp(async (t, clock) => {
    const cookie = await loginCookie(t);
    const keys = () => t.app.request("/console/keys", { headers: { cookie } });
    const step = 20 * 60_000;
    for (let spent = 0; spent + step < SESSION_LIFETIME_MS; spent += step) {
      clock.advance(step);
      assert.equal((await keys()).status, 200, `busy at ${spent + step} ms`);
    }
    clock.advance(step);
    const ended = await keys();
    assert.equal(ended.status, 303);
    assert.match(ended.headers.get("location")!, /^\/console\/login/);
  }));

Deno.test("console log-out ends the session on the server, not just in the browser", () =>
  withApp(async (t) => {
    const jar = await consoleSignIn(t);
    const stolen = jar.header();
    const out = await submit(t, jar, "/console/keys", "/console/logout", {});
    assert.equal(out.status, 303);
    assert.equal(out.location, "/console/login?notice=logged_out");
    assert.ok(![...jar.cookies.keys()].includes("__Host-oi_console"), "the cookie is cleared");
    const replay = await t.app.request("/console/keys", { headers: { cookie: stolen } });
    assert.equal(replay.status, 303, "the old cookie value opens nothing any more");
    assert.equal(
      (await t.database.db.selectFrom("console_sessions").selectAll().execute()).length,
      0,
    );
  }));

Deno.test("a password reset ends every console session of the account", () =>
  withApp(async (t, clock) => {
    const laptop = await consoleSignIn(t);
    const phone = new CookieJar();
    const login = await submit(t, phone, "/console/login", "/console/login", {
      email: "ada@example.com",
      password: "violet-harbour-lantern-42",
    });
    assert.equal(login.status, 303);
    const other = await consoleSignIn(t, "grace@example.com");
    clock.advance(61_000);
    const asked = await submit(t, new CookieJar(), "/console/forgot", "/console/forgot", {
      email: "ada@example.com",
    });
    assert.equal(asked.location, "/console/sent/reset");
    const mail = (await t.outbox()).filter((m) => m.kind === "reset_password").at(-1)!;
    const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
    assert.equal(link.pathname, "/console/reset", "the reset email lands on the console");
    const reset = await submit(
      t,
      new CookieJar(),
      `${link.pathname}${link.search}`,
      "/console/reset",
      {
        token: tokenFromEmail(mail.text),
        password: "quartz-meadow-lantern-77",
        confirm: "quartz-meadow-lantern-77",
      },
    );
    assert.equal(reset.status, 303, reset.html);
    assert.equal(reset.location, "/console/login?notice=password_reset");
    for (const jar of [laptop, phone]) {
      const page = await getPage(t, jar, "/console/keys");
      assert.equal(page.status, 303, "the session ended with the reset");
    }
    assert.equal((await getPage(t, other, "/console/keys")).status, 200, "others keep theirs");
    const left = await t.database.db.selectFrom("console_sessions").select("account_id").execute();
    assert.equal(left.length, 1);
  }));
