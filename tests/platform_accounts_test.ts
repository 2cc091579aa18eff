/** Account routes: register, verify, resend, forgot/reset password, login and throttling. */
import assert from "node:assert/strict";
import { testApp, testClock, tokenFromEmail } from "./helpers.ts";
import { call, loginToken, PASSWORD, registerVerified, type TestApp } from "./platform.ts";
import { hashPassword } from "../serve/platform/passwords.ts";

const REGISTER = "/api/v1/platform/register";
const profile = { full_name: "Ada Lovelace", company_name: "Engines Ltd" };

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

Deno.test("register answers pending_verification and mails a link; only the hash is stored", () =>
  withApp(async (t) => {
    const response = await call(t, "POST", REGISTER, {
      body: { email: "  Ada@Example.COM ", password: PASSWORD, ...profile },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), ["message", "next_step", "status"]);
    assert.equal(response.body.status, "pending_verification");
    const mails = await t.outbox();
    assert.equal(mails.length, 1);
    assert.equal(mails[0].to, "Ada@example.com", "domain lower-cased, local part kept");
    const token = tokenFromEmail(mails[0].text);
    assert.match(
      mails[0].text,
      /https:\/\/api\.example\.test\/console\/verify\?token=/,
    );
    const tokens = await t.database.db.selectFrom("email_tokens").selectAll().execute();
    assert.equal(tokens.length, 1);
    assert.notEqual(tokens[0].token_hash, token);
    assert.ok(!JSON.stringify(tokens).includes(token), "the raw token is not stored");
    const account = await t.database.db.selectFrom("accounts").selectAll()
      .executeTakeFirstOrThrow();
    assert.match(account.password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  }));

Deno.test("register: a taken email gets the same answer, no email, and about the same time", () =>
  withApp(async (t) => {
    const first = await call(t, "POST", REGISTER, {
      body: { email: "taken@example.com", password: PASSWORD, ...profile },
    });
    const again = await call(t, "POST", REGISTER, {
      body: { email: "taken@example.com", password: "another-long-passphrase", ...profile },
    });
    assert.equal(again.status, first.status);
    assert.deepEqual(again.body, first.body);
    assert.equal((await t.outbox()).length, 1, "no email for the taken address");

    const time = async (email: string) => {
      // The database work of the previous registration runs after its answer; let it finish,
      // so each timing holds only its own path (a new address leaves more work behind, which
      // otherwise lands in whichever request comes next).
      await t.platform.tasks.drain();
      const started = performance.now();
      await call(t, "POST", REGISTER, { body: { email, password: PASSWORD, ...profile } });
      return performance.now() - started;
    };
    // The fastest of each: a busy moment on the machine (the parallel test run) only ever adds
    // time, and one undisturbed timing of each path is enough to compare them.
    const fastest = (xs: number[]) => Math.min(...xs);
    const known: number[] = [];
    const unknown: number[] = [];
    const hashes: number[] = [];
    // Interleaved, so a busy moment on the machine weighs on all three alike.
    for (let i = 0; i < 11; i++) {
      const started = performance.now();
      await hashPassword(PASSWORD);
      hashes.push(performance.now() - started);
      // Alternating which path goes first, so neither always follows the hash.
      if (i % 2 === 0) {
        unknown.push(await time(`new${i}@example.com`));
        known.push(await time("taken@example.com"));
      } else {
        known.push(await time("taken@example.com"));
        unknown.push(await time(`new${i}@example.com`));
      }
    }
    const [k, u, h] = [fastest(known), fastest(unknown), fastest(hashes)];
    const report = `known ${k.toFixed(1)} ms, new ${u.toFixed(1)} ms, one hash ${h.toFixed(1)} ms`;
    // The taken email costs a password hash too (argon2id is a few ms on this hardware)...
    assert.ok(k >= 0.7 * h, `the taken-email path hashes the password: ${report}`);
    // ...and the two answers differ by well under one hash.
    assert.ok(Math.abs(k - u) <= 0.5 * h + 5, `the two paths take about the same time: ${report}`);
  }));

Deno.test("register: each bad field is a 422 naming field and rule, echoing nothing", () =>
  withApp(async (t) => {
    const secret = "password1234";
    const response = await call(t, "POST", REGISTER, {
      body: { email: "not-an-email-zz9", password: secret, full_name: "", company_name: 7 },
    });
    assert.equal(response.status, 422);
    const errors = response.body.errors as { loc: string[]; type: string; msg: string }[];
    const locs = errors.map((e) => e.loc.join("."));
    for (const field of ["email", "password", "full_name", "company_name"]) {
      assert.ok(locs.includes(`body.${field}`), `${field} reported`);
    }
    assert.match(errors.find((e) => e.loc[1] === "password")!.msg, /most commonly used/);
    const text = JSON.stringify(response.body);
    assert.ok(!text.includes(secret) && !text.includes("not-an-email-zz9"), "no echo");

    const short = await call(t, "POST", REGISTER, {
      body: { email: "a@example.com", password: "short", ...profile },
    });
    assert.deepEqual(
      (short.body.errors as { loc: string[]; type: string }[]).map((e) => [e.loc, e.type]),
      [[["body", "password"], "too_small.string"]],
    );
    const long = await call(t, "POST", REGISTER, {
      body: { email: "a@example.com", password: "x".repeat(129), ...profile },
    });
    assert.equal(long.status, 422);
    const missing = await call(t, "POST", REGISTER, { body: {} });
    assert.equal((missing.body.errors as unknown[]).length, 4);
    assert.equal((await t.outbox()).length, 0);
  }));

Deno.test("verify-email: valid, reused, forged, expired, and the POST form", () =>
  withApp(async (t, clock) => {
    await call(t, "POST", REGISTER, {
      body: { email: "ada@example.com", password: PASSWORD, ...profile },
    });
    const token = tokenFromEmail((await t.outbox())[0].text);
    const url = (tok: string) => `/api/v1/platform/verify-email?token=${encodeURIComponent(tok)}`;

    const forged = token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA");
    assert.deepEqual((await call(t, "GET", url(forged))).body, { status: "invalid_token" });
    const ok = await call(t, "GET", url(token));
    assert.equal(ok.status, 200);
    assert.deepEqual(Object.keys(ok.body).sort(), [
      "beta_access",
      "message",
      "next_step",
      "status",
    ]);
    assert.equal(ok.body.status, "verified");
    assert.equal(ok.body.beta_access, "activated");
    assert.deepEqual((await call(t, "GET", url(token))).body, { status: "invalid_token" });

    const contracts = await t.database.db.selectFrom("contracts").selectAll().execute();
    assert.equal(contracts.length, 1);
    assert.equal(contracts[0].plan, "beta");
    assert.equal(contracts[0].status, "trial");
    assert.equal(contracts[0].rate_per_minute, 60);
    assert.equal(contracts[0].ends_at!.getTime() - clock.now().getTime(), 90 * 86_400_000);

    // A second account: expired after 24 hours; the POST form needs the matching email.
    await call(t, "POST", REGISTER, {
      body: { email: "bob@example.com", password: PASSWORD, ...profile },
    });
    const bobToken = tokenFromEmail((await t.outbox()).at(-1)!.text);
    const wrongEmail = await call(t, "POST", "/api/v1/platform/verify-email", {
      body: { email: "ada@example.com", token: bobToken },
    });
    assert.deepEqual(wrongEmail.body, { status: "invalid_token" });
    clock.advance(24 * 3_600_000 + 1000);
    const expired = await call(t, "POST", "/api/v1/platform/verify-email", {
      body: { email: "bob@example.com", token: bobToken },
    });
    assert.deepEqual(expired.body, { status: "expired_token" });

    const tooShort = await call(t, "GET", "/api/v1/platform/verify-email?token=abc");
    assert.equal(tooShort.status, 422);
    assert.deepEqual((tooShort.body.errors as { loc: string[] }[])[0].loc, ["query", "token"]);
    const none = await call(t, "GET", "/api/v1/platform/verify-email");
    assert.equal(none.status, 422);
    const tooLong = await call(t, "GET", url("a".repeat(4097)));
    assert.equal(tooLong.status, 422);
  }));

Deno.test("verification provisions no second contract when one is in force", () =>
  withApp(async (t) => {
    await registerVerified(t, "ada@example.com");
    await call(t, "POST", "/api/v1/platform/resend-verification", {
      body: { email: "ada@example.com" },
    });
    const contracts = await t.database.db.selectFrom("contracts").selectAll().execute();
    assert.equal(contracts.length, 1);
    assert.equal((await t.outbox()).length, 1, "a verified account gets no new link");
  }));

Deno.test("resend-verification and forgot-password answer alike for known and unknown emails", () =>
  withApp(async (t, clock) => {
    await call(t, "POST", REGISTER, {
      body: { email: "pending@example.com", password: PASSWORD, ...profile },
    });
    const firstToken = tokenFromEmail((await t.outbox())[0].text);
    clock.advance(61_000);
    for (const path of ["resend-verification", "forgot-password"]) {
      const known = await call(t, "POST", `/api/v1/platform/${path}`, {
        body: { email: "pending@example.com" },
      });
      const unknown = await call(t, "POST", `/api/v1/platform/${path}`, {
        body: { email: "nobody@example.com" },
      });
      assert.equal(known.status, 200);
      assert.deepEqual(known.body, unknown.body);
      const bad = await call(t, "POST", `/api/v1/platform/${path}`, { body: { email: "x" } });
      assert.equal(bad.status, 422);
    }
    const mails = await t.outbox();
    assert.deepEqual(mails.map((m) => [m.kind, m.to]), [
      ["verify_email", "pending@example.com"],
      ["verify_email", "pending@example.com"],
      ["reset_password", "pending@example.com"],
    ]);
    // The resent link replaces the first one.
    const url = (tok: string) => `/api/v1/platform/verify-email?token=${encodeURIComponent(tok)}`;
    assert.equal((await call(t, "GET", url(firstToken))).body.status, "invalid_token");
    assert.equal(
      (await call(t, "GET", url(tokenFromEmail(mails[1].text)))).body.status,
      "verified",
    );
    // Asking again within a minute sends nothing more, and still answers the same.
    const again = await call(t, "POST", "/api/v1/platform/forgot-password", {
      body: { email: "pending@example.com" },
    });
    assert.equal(again.status, 200);
    assert.equal((await t.outbox()).length, 3);
  }));

Deno.test("reset-password: replaces the password, ends old tokens and sessions, single use", () =>
  withApp(async (t, clock) => {
    const email = await registerVerified(t);
    const oldSession = await loginToken(t, email);
    await call(t, "POST", "/api/v1/platform/forgot-password", { body: { email } });
    clock.advance(61_000);
    await call(t, "POST", "/api/v1/platform/forgot-password", { body: { email } });
    const resets = (await t.outbox()).filter((m) => m.kind === "reset_password");
    assert.equal(resets.length, 2);
    const [older, newer] = resets.map((m) => tokenFromEmail(m.text));
    assert.match(resets[0].text, /https:\/\/api\.example\.test\/console\/reset\?token=/);

    const weak = await call(t, "POST", "/api/v1/platform/reset-password", {
      body: { token: newer, new_password: "password1234" },
    });
    assert.equal(weak.status, 422);
    const newPassword = "saffron-meadow-compass-7";
    const done = await call(t, "POST", "/api/v1/platform/reset-password", {
      body: { token: newer, new_password: newPassword },
    });
    assert.equal(done.status, 200);
    assert.equal(done.body.status, "password_reset");
    const reuse = await call(t, "POST", "/api/v1/platform/reset-password", {
      body: { token: newer, new_password: "another-fine-passphrase" },
    });
    assert.deepEqual(reuse.body, { status: "invalid_token" });
    const other = await call(t, "POST", "/api/v1/platform/reset-password", {
      body: { token: older, new_password: "another-fine-passphrase" },
    });
    assert.deepEqual(other.body, { status: "invalid_token" }, "outstanding tokens are ended");

    const keys = await call(t, "GET", "/api/v1/platform/api-keys", { bearer: oldSession });
    assert.equal(keys.status, 401, "sessions from before the reset are ended");
    const oldLogin = await call(t, "POST", "/api/v1/platform/login", {
      body: { email, password: PASSWORD },
    });
    assert.equal(oldLogin.status, 401);
    const newLogin = await call(t, "POST", "/api/v1/platform/login", {
      body: { email, password: newPassword },
    });
    assert.equal(newLogin.status, 200);
    assert.ok((await t.outbox()).some((m) => m.kind === "password_changed"));

    clock.advance(61_000);
    await call(t, "POST", "/api/v1/platform/forgot-password", { body: { email } });
    const late = tokenFromEmail(
      (await t.outbox()).filter((m) => m.kind === "reset_password").at(-1)!.text,
    );
    clock.advance(3_600_000 + 1000);
    const expired = await call(t, "POST", "/api/v1/platform/reset-password", {
      body: { token: late, new_password: "another-fine-passphrase" },
    });
    assert.deepEqual(expired.body, { status: "expired_token" });
  }));

Deno.test("login: one generic 401 for every failure; token expires; management token shape", () =>
  withApp(async (t, clock) => {
    await call(t, "POST", REGISTER, {
      body: { email: "pending@example.com", password: PASSWORD, ...profile },
    });
    const email = await registerVerified(t);
    const attempts = [
      { email, password: "wrong-password-entirely" },
      { email: "nobody@example.com", password: PASSWORD },
      { email: "pending@example.com", password: PASSWORD },
    ];
    const answers = [];
    for (const body of attempts) {
      const response = await call(t, "POST", "/api/v1/platform/login", { body });
      assert.equal(response.status, 401);
      assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer /);
      const { instance: _instance, ...rest } = response.body;
      answers.push(rest);
    }
    assert.deepEqual(answers[1], answers[0]);
    assert.deepEqual(answers[2], answers[0]);

    const ok = await call(t, "POST", "/api/v1/platform/login", {
      body: { email, password: PASSWORD },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.token_type, "Bearer");
    assert.equal(ok.body.expires_in, 900);
    const [, payload] = (ok.body.access_token as string).split(".");
    const claims = JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/")));
    assert.equal(claims.typ, "management");
    const token = ok.body.access_token as string;
    assert.equal(
      (await call(t, "GET", "/api/v1/platform/api-keys", { bearer: token })).status,
      200,
    );
    clock.advance(901_000);
    const late = await call(t, "GET", "/api/v1/platform/api-keys", { bearer: token });
    assert.equal(late.status, 401);
    assert.match(late.headers.get("www-authenticate") ?? "", /invalid_token/);
  }));

Deno.test("login throttling: locks after 5 failures per email, known or not, without checking", () =>
  withApp(async (t, clock) => {
    const email = await registerVerified(t);
    const fail = (address: string) =>
      call(t, "POST", "/api/v1/platform/login", {
        body: { email: address, password: "wrong-password-entirely" },
      });
    for (let i = 0; i < 5; i++) {
      assert.equal((await fail(email)).status, 401);
      assert.equal((await fail("ghost@example.com")).status, 401);
    }
    const locked = await fail(email);
    const ghost = await fail("ghost@example.com");
    assert.equal(locked.status, 429);
    assert.equal(ghost.status, 429);
    assert.equal(locked.headers.get("retry-after"), ghost.headers.get("retry-after"));
    assert.deepEqual(
      { ...locked.body, instance: "" },
      { ...ghost.body, instance: "" },
      "a lock looks the same for a real and an unknown email",
    );
    // While locked even the right password is refused, so a lock reveals nothing.
    const right = await call(t, "POST", "/api/v1/platform/login", {
      body: { email, password: PASSWORD },
    });
    assert.equal(right.status, 429);
    clock.advance(Number(locked.headers.get("retry-after")) * 1000 + 1000);
    assert.equal(
      (await call(t, "POST", "/api/v1/platform/login", { body: { email, password: PASSWORD } }))
        .status,
      200,
    );
  }));

Deno.test("login throttling holds against parallel guesses: at most 5 passwords are checked", () =>
  withApp(async (t) => {
    const email = await registerVerified(t);
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(t, "POST", "/api/v1/platform/login", {
          body: { email, password: `wrong-password-number-${i}` },
        })),
    );
    const checked = guesses.filter((g) => g.status !== 429);
    assert.ok(checked.length <= 5, `${checked.length} passwords were checked`);
    assert.ok(guesses.every((g) => g.status === 401 || g.status === 429));
  }));

Deno.test("register: addresses differing in case are one account; an abandoned one frees after 24 h", () =>
  withApp(async (t, clock) => {
    const squatter = "squatters-own-passphrase";
    await call(t, "POST", REGISTER, {
      body: { email: "Ada@example.com", password: squatter, ...profile },
    });
    await call(t, "POST", REGISTER, {
      body: { email: "ada@EXAMPLE.com", password: PASSWORD, ...profile },
    });
    assert.equal((await t.outbox()).length, 1, "the second address is the same account");
    clock.advance(24 * 3_600_000 + 1000);
    await call(t, "POST", REGISTER, {
      body: { email: "ada@example.com", password: PASSWORD, ...profile },
    });
    const mails = await t.outbox();
    assert.equal(mails.length, 2, "the expired registration no longer holds the address");
    assert.equal(mails[1].to, "ada@example.com");
    assert.ok(!mails[1].text.includes("Ada Lovelace"), "no registrant-supplied text in mail");
    const token = tokenFromEmail(mails[1].text);
    await call(t, "GET", `/api/v1/platform/verify-email?token=${encodeURIComponent(token)}`);
    const login = (password: string) =>
      call(t, "POST", "/api/v1/platform/login", { body: { email: "ADA@example.com", password } });
    assert.equal((await login(squatter)).status, 401);
    assert.equal((await login(PASSWORD)).status, 200);
    const accounts = await t.database.db.selectFrom("accounts").select("email").execute();
    assert.deepEqual(accounts, [{ email: "ada@example.com" }]);
  }));

Deno.test("register: the password may not equal the email nor repeat two characters", () =>
  withApp(async (t) => {
    for (const password of ["a".repeat(20), "abababababababab", "ada@example.com"]) {
      const response = await call(t, "POST", REGISTER, {
        body: { email: "ada@example.com", password, ...profile },
      });
      assert.equal(response.status, 422, password);
      const [error] = response.body.errors as { loc: string[]; type: string }[];
      assert.deepEqual([error.loc, error.type], [["body", "password"], "password_policy"]);
    }
  }));

Deno.test("client address behind proxies: counted from the right of X-Forwarded-For", async () => {
  const { clientAddress } = await import("../serve/platform/routes_account.ts");
  const { Hono } = await import("hono");
  const app = new Hono();
  let seen: string[] = [];
  app.get("/", (c) => {
    seen = [clientAddress(c, 0), clientAddress(c, 1), clientAddress(c, 2)];
    return c.text("ok");
  });
  await app.request("/", { headers: { "x-forwarded-for": "6.6.6.6, 203.0.113.7, 10.0.0.2" } }, {
    remoteAddr: { hostname: "10.0.0.3" },
  });
  assert.deepEqual(seen, ["10.0.0.3", "10.0.0.2", "203.0.113.7"]);
});

Deno.test("anti-automation: 50 account requests per address, 5 mails per account and day", () =>
  withApp(async (t, clock) => {
    const email = await registerVerified(t); // 1 request from this address
    for (let i = 0; i < 6; i++) {
      assert.equal(
        (await call(t, "POST", "/api/v1/platform/forgot-password", { body: { email } })).status,
        200,
      );
      // The work after the answer finishes before the clock moves (it was a race under load).
      await t.platform.tasks.drain();
      clock.advance(61_000);
    }
    const resets = (await t.outbox()).filter((m) => m.kind === "reset_password");
    assert.equal(resets.length, 5, "a mailbox gets at most 5 reset links a day");
    for (let i = 0; i < 43; i++) {
      const response = await call(t, "POST", "/api/v1/platform/resend-verification", {
        body: { email: `flood${i}@example.com` },
      });
      assert.equal(response.status, 200, `request ${i + 8}`);
    }
    const refused = await call(t, "POST", REGISTER, {
      body: { email: "late@example.com", password: PASSWORD, ...profile },
    });
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
  }));

Deno.test("squatting: resending does not extend a registration; Unicode case folds one way", () =>
  withApp(async (t, clock) => {
    await call(t, "POST", REGISTER, {
      body: { email: "owner@example.com", password: "squatters-own-passphrase", ...profile },
    });
    // The registration's work after the answer finishes before the clock moves (under load the
    // resend could otherwise run before the account exists).
    await t.platform.tasks.drain();
    clock.advance(23 * 3_600_000);
    await call(t, "POST", "/api/v1/platform/resend-verification", {
      body: { email: "owner@example.com" },
    });
    assert.equal((await t.outbox()).length, 2, "a resend within the day is sent");
    clock.advance(2 * 3_600_000); // 25 h after registering, 2 h after the resend
    await call(t, "POST", "/api/v1/platform/resend-verification", {
      body: { email: "owner@example.com" },
    });
    assert.equal((await t.outbox()).length, 2, "a lapsed registration is not resent");
    await call(t, "POST", REGISTER, {
      body: { email: "owner@example.com", password: PASSWORD, ...profile },
    });
    assert.equal((await t.outbox()).length, 3, "the lapsed registration no longer holds it");

    // A dotted capital I folds differently in Postgres and JavaScript; the key is the
    // service's own, so the plain address is not blocked by the dotted one.
    await call(t, "POST", REGISTER, {
      body: { email: "\u0130nci@example.com", password: "squatters-own-passphrase", ...profile },
    });
    await call(t, "POST", REGISTER, {
      body: { email: "inci@example.com", password: PASSWORD, ...profile },
    });
    const to = (await t.outbox()).map((m) => m.to);
    assert.ok(to.includes("inci@example.com"));
    const token = tokenFromEmail((await t.outbox()).find((m) => m.to === "inci@example.com")!.text);
    await call(t, "GET", `/api/v1/platform/verify-email?token=${encodeURIComponent(token)}`);
    const login = await call(t, "POST", "/api/v1/platform/login", {
      body: { email: "inci@example.com", password: PASSWORD },
    });
    assert.equal(login.status, 200);
  }));

Deno.test("the old reset link still works: it redirects to the console's reset page", () =>
  withApp(async (t) => {
    const page = await t.app.request("/reset-password?token=abc");
    assert.equal(page.status, 302);
    assert.equal(page.headers.get("location"), "/console/reset?token=abc");
    const reset = await t.app.request("/console/reset?token=abcdefghijkl");
    assert.equal(reset.status, 200);
    assert.match(reset.headers.get("content-type") ?? "", /^text\/html/);
    const csp = reset.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.equal(reset.headers.get("referrer-policy"), "no-referrer");
    const html = await reset.text();
    assert.ok(!/<script[^>]*>[^<]/.test(html), "no script on the reset page");
    assert.ok(!/(src|href)="https?:\/\//.test(html), "nothing from another host");
  }));
