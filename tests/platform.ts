/** Helpers for platform tests: JSON requests and the whole sign-up flow. */
import assert from "node:assert/strict";
import type { testApp } from "./helpers.ts";
import { tokenFromEmail } from "./helpers.ts";

/** The app handle testApp returns. */
export type TestApp = Awaited<ReturnType<typeof testApp>>;

/** Sends a JSON request (body optional) with an optional bearer credential. */
export async function call(
  t: TestApp,
  method: string,
  path: string,
  options: { body?: unknown; bearer?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown> & unknown[]; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
  const response = await t.app.request(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : null,
    headers: response.headers,
  };
}

/** A strong password for tests. */
export const PASSWORD = "violet-harbour-lantern-42";

/** Registers and verifies an account; returns its normalised email. */
export async function registerVerified(t: TestApp, email = "ada@example.com"): Promise<string> {
  const registered = await call(t, "POST", "/api/v1/platform/register", {
    body: { email, password: PASSWORD, full_name: "Ada Lovelace", company_name: "Engines Ltd" },
  });
  assert.equal(registered.status, 200);
  const mail = (await t.outbox()).filter((m) => m.to === email && m.kind === "verify_email").at(-1);
  assert.ok(mail, "a verification email is in the outbox");
  const token = tokenFromEmail(mail.text);
  const verified = await call(
    t,
    "GET",
    `/api/v1/platform/verify-email?token=${encodeURIComponent(token)}`,
  );
  assert.equal(verified.body.status, "verified");
  return email;
}

/** Logs in and returns the management token. */
export async function loginToken(t: TestApp, email = "ada@example.com"): Promise<string> {
  const response = await call(t, "POST", "/api/v1/platform/login", {
    body: { email, password: PASSWORD },
  });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.access_token as string;
}

/** Registers, verifies, logs in and creates a key: the whole first-run flow. */
export async function signUp(
  t: TestApp,
  email = "ada@example.com",
  keyName = "production",
): Promise<{ email: string; token: string; key: string; keyId: number }> {
  await registerVerified(t, email);
  const token = await loginToken(t, email);
  const created = await call(t, "POST", "/api/v1/platform/api-keys/create", {
    bearer: token,
    body: { name: keyName },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return { email, token, key: created.body.key as string, keyId: created.body.key_id as number };
}
