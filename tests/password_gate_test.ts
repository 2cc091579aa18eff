/**
 * The cap on concurrent password hashing, through the routes that hash (register, login,
 * reset-password): with every turn taken and no queue they answer 503 problem+json with
 * Retry-After, the same for known and unknown emails, and a refused login is not counted as a
 * failed attempt. On PGlite, or the server when TEST_DATABASE_URL is set.
 */
import assert from "node:assert/strict";
import { testApp, testClock, tokenFromEmail } from "./helpers.ts";
import { call, PASSWORD, registerVerified, type TestApp } from "./platform.ts";
import { FREE_FAILURES } from "../serve/platform/throttle.ts";

async function withApp(
  env: Record<string, string>,
  fn: (t: TestApp, clock: ReturnType<typeof testClock>) => Promise<void>,
): Promise<void> {
  const clock = testClock();
  const t = await testApp({ build: false, clock: clock.now, env });
  try {
    await fn(t, clock);
  } finally {
    await t.cleanup();
  }
}

function assertBusy(response: Awaited<ReturnType<typeof call>>): void {
  assert.equal(response.status, 503, JSON.stringify(response.body));
  assert.equal(response.headers.get("content-type"), "application/problem+json");
  assert.equal(response.headers.get("retry-after"), "1");
  assert.equal(response.body.code, "overloaded");
}

Deno.test("password gate: with every turn taken, register, login and reset answer 503", () =>
  withApp({ ARGON2_CONCURRENCY: "1", ARGON2_QUEUE: "0" }, async (t, clock) => {
    const email = await registerVerified(t);
    await call(t, "POST", "/api/v1/platform/forgot-password", { body: { email } });
    const reset = (await t.outbox()).filter((m) => m.kind === "reset_password").at(-1)!;
    const release = await t.platform.passwordGate.acquire(); // the one turn, held
    try {
      const logins = await Promise.all(
        [email, "nobody@example.com"].map((e) =>
          call(t, "POST", "/api/v1/platform/login", { body: { email: e, password: PASSWORD } })
        ),
      );
      for (const response of logins) assertBusy(response);
      // Known and unknown emails get the same answer, body aside from the request id.
      const strip = (b: Record<string, unknown>) => ({ ...b, instance: "" });
      assert.deepEqual(strip(logins[0].body), strip(logins[1].body));
      for (const e of [email, "new@example.com"]) {
        assertBusy(
          await call(t, "POST", "/api/v1/platform/register", {
            body: { email: e, password: PASSWORD, full_name: "A", company_name: "B" },
          }),
        );
      }
      assertBusy(
        await call(t, "POST", "/api/v1/platform/reset-password", {
          body: { token: tokenFromEmail(reset.text), new_password: "saffron-meadow-compass-7" },
        }),
      );
      // More refused logins than the email's free failures: none is counted.
      for (let i = 0; i < FREE_FAILURES.email + 2; i++) {
        assertBusy(
          await call(t, "POST", "/api/v1/platform/login", {
            body: { email, password: "wrong-password-123" },
          }),
        );
      }
    } finally {
      release();
    }
    clock.advance(1000);
    const login = await call(t, "POST", "/api/v1/platform/login", {
      body: { email, password: PASSWORD },
    });
    assert.equal(login.status, 200, "the refused attempts neither counted nor locked the email");
    const registered = await call(t, "POST", "/api/v1/platform/register", {
      body: { email: "new@example.com", password: PASSWORD, full_name: "A", company_name: "B" },
    });
    assert.equal(registered.status, 200);
  }));

Deno.test("password gate: a login waits in the queue for a turn, or is refused after the wait", () =>
  withApp(
    { ARGON2_CONCURRENCY: "1", ARGON2_QUEUE: "4", ARGON2_QUEUE_WAIT_MS: "200" },
    async (t) => {
      const email = await registerVerified(t);
      let release = await t.platform.passwordGate.acquire();
      const waiting = call(t, "POST", "/api/v1/platform/login", {
        body: { email, password: PASSWORD },
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(t.platform.passwordGate.load.queued, 1, "the login waits for the held turn");
      release();
      assert.equal((await waiting).status, 200, "it went ahead once the turn was free");

      release = await t.platform.passwordGate.acquire();
      try {
        assertBusy(
          await call(t, "POST", "/api/v1/platform/login", { body: { email, password: PASSWORD } }),
        );
      } finally {
        release();
      }
    },
  ));

Deno.test("password gate: ARGON2_CONCURRENCY=0 turns the cap off", () =>
  withApp({ ARGON2_CONCURRENCY: "0", ARGON2_QUEUE: "0" }, async (t) => {
    const email = await registerVerified(t);
    const held = await t.platform.passwordGate.acquire();
    const responses = await Promise.all(
      Array.from(
        { length: 4 },
        () => call(t, "POST", "/api/v1/platform/login", { body: { email, password: PASSWORD } }),
      ),
    );
    held();
    assert.deepEqual(responses.map((r) => r.status), [200, 200, 200, 200]);
  }));
