/**
 * GET /reset-password: the page the reset email links to when PUBLIC_BASE_URL is this server.
 * A plain form that sends the token from the link and the new password to
 * POST /api/v1/platform/reset-password. Nothing is loaded from another host (strict CSP), the
 * token is taken out of the address bar once read, and no referrer is ever sent.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/router.ts";

const CSP = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Choose a new password</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; padding: 0 1rem; }
  label { display: block; margin-top: 1rem; }
  input { width: 100%; padding: .5rem; font: inherit; box-sizing: border-box; }
  button { margin-top: 1.5rem; padding: .6rem 1.2rem; font: inherit; }
  #result { margin-top: 1.5rem; font-weight: 600; }
</style>
</head>
<body>
<h1>Choose a new password</h1>
<p>12 to 128 characters. Common passwords are refused.</p>
<form>
  <label>New password <input name="password" type="password" autocomplete="new-password"
    minlength="12" maxlength="128" required></label>
  <label>Repeat it <input name="confirm" type="password" autocomplete="new-password"
    minlength="12" maxlength="128" required></label>
  <button type="submit">Change password</button>
</form>
<p id="result" role="status"></p>
<script src="/reset-password/app.js"></script>
</body>
</html>
`;

const SCRIPT = `"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
history.replaceState(null, "", location.pathname);
const form = document.querySelector("form");
const result = document.getElementById("result");
const outcomes = {
  password_reset: "Your password was changed. You can log in with it now.",
  invalid_token: "This link is not valid: it was already used, or a newer one was sent.",
  expired_token: "This link has expired. Ask for a new one with forgot-password.",
};
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (form.password.value !== form.confirm.value) {
    result.textContent = "The two passwords differ.";
    return;
  }
  result.textContent = "Working...";
  try {
    const response = await fetch("/api/v1/platform/reset-password", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token, new_password: form.password.value }),
    });
    const body = await response.json().catch(() => ({}));
    result.textContent = response.ok
      ? outcomes[body.status] || "Unexpected answer."
      : (body.errors || []).map((e) => e.msg).join("; ") || body.detail || "The request failed.";
    if (body.status === "password_reset") form.hidden = true;
  } catch {
    result.textContent = "The service could not be reached. Try again.";
  }
});
`;

/** Registers the reset page and its script on the root app. */
export function registerResetPage(app: OpenAPIHono<AppEnv>): void {
  app.get("/reset-password", (c) => {
    c.header("content-security-policy", CSP);
    c.header("cache-control", "no-store");
    return c.html(PAGE);
  });
  app.get("/reset-password/app.js", (c) => {
    c.header("content-type", "text/javascript; charset=utf-8");
    c.header("cache-control", "public, max-age=300");
    return c.body(SCRIPT);
  });
}
