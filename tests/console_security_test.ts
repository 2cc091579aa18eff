/**
 * Console security: CSRF token and Origin refusals (403), the cookie opening no API route
 * (401), API credentials opening no console page, the headers of every page, and the same
 * answers whatever the email (no account enumeration through text, status or redirect).
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers.ts";
import { consoleSignIn, CookieJar, csrfOf, getPage, ORIGIN, postForm, submit } from "./console.ts";
import { call, loginToken, PASSWORD, type TestApp } from "./platform.ts";

async function withApp(fn: (t: TestApp) => Promise<void>) {
  const t = await testApp({ build: false });
  try {
    await fn(t);
  } finally {
    await t.cleanup();
  }
}

Deno.test("console POSTs without the right CSRF token or origin are refused with 403", () =>
  withApp(async (t) => {
    const jar = await consoleSignIn(t);
    const page = await getPage(t, jar, "/console/keys");
    const token = csrfOf(page.html);
    const other = await consoleSignIn(t, "grace@example.com");
    const otherToken = csrfOf((await getPage(t, other, "/console/keys")).html);
    const refused = [
      ["no token", {}, { origin: ORIGIN }],
      ["a wrong token", { _csrf: "x".repeat(32) }, { origin: ORIGIN }],
      ["another session's token", { _csrf: otherToken }, { origin: ORIGIN }],
      ["another origin", { _csrf: token }, { origin: "https://evil.example" }],
      ["a cross-site fetch", { _csrf: token }, { origin: ORIGIN, "sec-fetch-site": "cross-site" }],
      ["no origin and no fetch metadata", { _csrf: token }, {}],
      ["Origin: null without fetch metadata", { _csrf: token }, { origin: "null" }],
    ] as const;
    for (const [why, fields, headers] of refused) {
      const response = await postForm(t, jar, "/console/keys", { ...fields, name: "evil" }, {
        ...headers,
      });
      assert.equal(response.status, 403, why);
      assert.match(response.html, /refused|expired/i, why);
    }
    const keys = await t.database.db.selectFrom("api_keys").selectAll().execute();
    assert.equal(keys.length, 0, "no refused request created anything");
    // What a browser sends under Referrer-Policy: no-referrer: Origin null, fetch metadata.
    const ok = await postForm(t, jar, "/console/keys", { _csrf: token, name: "good" }, {
      origin: "null",
      "sec-fetch-site": "same-origin",
    });
    assert.equal(ok.status, 303);
    // The log-out form is protected the same way.
    const out = await postForm(t, jar, "/console/logout", {}, { origin: ORIGIN });
    assert.equal(out.status, 403);
    assert.equal((await getPage(t, jar, "/console/keys")).status, 200, "still signed in");
  }));

Deno.test("pre-session forms (log in, sign up) need the pre-session cookie's token too", () =>
  withApp(async (t) => {
    const jar = new CookieJar();
    const form = await getPage(t, jar, "/console/login");
    const token = csrfOf(form.html);
    const fields = { email: "ada@example.com", password: PASSWORD };
    const noCookie = await postForm(t, new CookieJar(), "/console/login", {
      _csrf: token,
      ...fields,
    });
    assert.equal(noCookie.status, 403, "a token without its cookie");
    const evil = await postForm(t, jar, "/console/signup", { _csrf: token, ...fields }, {
      origin: "https://evil.example",
    });
    assert.equal(evil.status, 403);
    assert.equal((await t.outbox()).length, 0);
  }));

Deno.test("the console cookie opens no API route (401), and API credentials no console page", () =>
  withApp(async (t) => {
    const jar = await consoleSignIn(t);
    for (
      const [method, path] of [
        ["GET", "/api/v1/platform/api-keys"],
        ["GET", "/api/v1/platform/usage"],
        ["POST", "/api/v1/occupation/candidates"],
        ["GET", "/api/v1/health"],
      ]
    ) {
      const response = await t.app.request(path, {
        method,
        headers: { cookie: jar.header(), "content-type": "application/json", origin: ORIGIN },
        body: method === "POST" ? JSON.stringify({ title: "nurse" }) : undefined,
      });
      assert.equal(response.status, 401, `${method} ${path} with the console cookie`);
    }
    const token = await loginToken(t);
    const key = await call(t, "POST", "/api/v1/platform/api-keys/create", {
      bearer: token,
      body: { name: "api" },
    });
    for (const bearer of [token, key.body.key as string]) {
      for (const path of ["/console/keys", "/console/usage", "/console/feedback", "/console/try"]) {
        const response = await t.app.request(path, {
          headers: { authorization: `Bearer ${bearer}` },
        });
        assert.equal(response.status, 303, path);
        assert.equal(response.headers.get("location"), "/console/login");
        assert.ok(!(await response.text()).includes("ada@example.com"), "no account data");
      }
    }
  }));

Deno.test("console pages: strict CSP with a fresh nonce, no framing, no referrer, no-store", () =>
  withApp(async (t) => {
    const jar = await consoleSignIn(t);
    const nonces = new Set<string>();
    for (
      const path of [
        "/console/keys",
        "/console/usage",
        "/console/try",
        "/console/feedback",
        "/console/login",
        "/console/signup",
        "/console/no-such-page",
      ]
    ) {
      const page = await getPage(
        t,
        path.includes("sign") || path.includes("login") ? new CookieJar() : jar,
        path,
      );
      assert.equal(page.status, path.endsWith("no-such-page") ? 404 : 200, path);
      const csp = page.headers.get("content-security-policy") ?? "";
      assert.match(csp, /^default-src 'none'; /, path);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.match(csp, /base-uri 'none'/, path);
      assert.ok(!csp.includes("unsafe-inline") && !csp.includes("unsafe-eval"), path);
      const nonce = csp.match(/script-src 'nonce-([^']+)'/)![1];
      assert.ok(!nonces.has(nonce), "a new nonce per response");
      nonces.add(nonce);
      assert.match(page.html, new RegExp(`<style nonce="${nonce}">`), path);
      for (const tag of page.html.match(/<script[^>]*>/g) ?? []) {
        assert.ok(tag.includes(`nonce="${nonce}"`), `${path}: every script carries the nonce`);
      }
      assert.ok(!/ style="/.test(page.html), `${path}: no style attributes (CSP would block them)`);
      assert.ok(!/(src|href|action)="(https?:)?\/\//.test(page.html), `${path}: nothing elsewhere`);
      assert.equal(page.headers.get("referrer-policy"), "no-referrer", path);
      assert.equal(page.headers.get("cache-control"), "no-store", path);
      assert.equal(page.headers.get("x-frame-options"), "DENY", path);
      assert.match(page.headers.get("content-type") ?? "", /^text\/html/, path);
    }
  }));

Deno.test("console answers say nothing about which emails have accounts", () =>
  withApp(async (t) => {
    await consoleSignIn(t);
    const strip = (html: string) =>
      html.replace(/nonce="[^"]+"/g, "").replace(/value="[^"]+"/g, "");
    // Sign-up with a taken email and with a new one: the same redirect.
    const taken = await submit(t, new CookieJar(), "/console/signup", "/console/signup", {
      email: "ada@example.com",
      password: PASSWORD,
      full_name: "Someone Else",
      company_name: "Other",
    });
    const fresh = await submit(t, new CookieJar(), "/console/signup", "/console/signup", {
      email: "new@example.com",
      password: PASSWORD,
      full_name: "New Person",
      company_name: "Other",
    });
    assert.equal(taken.status, 303);
    assert.equal(taken.location, fresh.location);
    // Forgot and resend: the same redirect for a known and an unknown email.
    for (const form of ["/console/forgot", "/console/resend"]) {
      const known = await submit(t, new CookieJar(), form, form, { email: "ada@example.com" });
      const unknown = await submit(t, new CookieJar(), form, form, { email: "nobody@example.com" });
      assert.equal(known.status, 303, form);
      assert.equal(known.location, unknown.location, form);
    }
    // Log-in: a wrong password and an unknown email get the same page.
    const wrong = await submit(t, new CookieJar(), "/console/login", "/console/login", {
      email: "ada@example.com",
      password: "not-the-password-1",
    });
    const unknown = await submit(t, new CookieJar(), "/console/login", "/console/login", {
      email: "nobody@example.com",
      password: "not-the-password-1",
    });
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.equal(strip(wrong.html), strip(unknown.html));
    assert.ok(!wrong.html.includes("not-the-password-1"), "the password is never echoed");
  }));

Deno.test("console log-in reuses the platform's login throttle (429 after 5 failures)", () =>
  withApp(async (t) => {
    await consoleSignIn(t);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const page = await submit(t, new CookieJar(), "/console/login", "/console/login", {
        email: "ada@example.com",
        password: `wrong-password-${i}`,
      });
      statuses.push(page.status);
      if (page.status === 429) {
        assert.match(page.html, /Too many attempts/);
        assert.ok(Number(page.headers.get("retry-after")) > 0);
      }
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
    // The API sees the same throttle.
    const api = await call(t, "POST", "/api/v1/platform/login", {
      body: { email: "ada@example.com", password: PASSWORD },
    });
    assert.equal(api.status, 429);
  }));
