/** The console's request guards: headers, sessions, pre-session cookies and POST checks. */
import type { MiddlewareHandler } from "hono";
import { deleteCookie } from "hono/cookie";
import type { PlatformContext } from "../platform/mod.ts";
import { base64url } from "../platform/secrets.ts";
import { type ConsoleContext, type ConsoleEnv, PageError } from "./context.ts";
import { csrfMatches, csrfToken, originProblem } from "./csrf.ts";
import {
  cookieNames,
  findSession,
  isHttps,
  newCookieId,
  readCookie,
  SESSION_LIFETIME_MS,
  setConsoleCookie,
} from "./session.ts";

/** The Content-Security-Policy of a console response with this nonce. */
export function consoleCsp(nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; ` +
    "connect-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; " +
    "frame-ancestors 'none'";
}

/**
 * Every console response: a fresh nonce, a strict CSP, no framing, no referrer, no caching
 * (pages show account data or carry a form token).
 */
export function consoleHeaders(ctx: PlatformContext): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const nonce = base64url(crypto.getRandomValues(new Uint8Array(18)));
    c.set("nonce", nonce);
    c.set(
      "secure",
      isHttps(c, ctx.settings.trustedProxyHops, ctx.settings.publicBaseUrl),
    );
    c.set("session", null);
    await next();
    const headers = c.res.headers;
    headers.set("content-security-policy", consoleCsp(nonce));
    headers.set("x-frame-options", "DENY");
    headers.set("referrer-policy", "no-referrer");
    headers.set("cache-control", "no-store");
    headers.set("cross-origin-opener-policy", "same-origin");
  };
}

/** Loads the session a cookie names; sets `session` and its CSRF token, or leaves null. */
export async function loadSession(ctx: PlatformContext, c: ConsoleContext): Promise<boolean> {
  const names = cookieNames(c.get("secure"));
  const id = readCookie(c, names.session);
  if (!id) return false;
  const session = await findSession(ctx, id, ctx.clock());
  if (!session) {
    deleteCookie(c, names.session, { path: "/", secure: c.get("secure") });
    return false;
  }
  c.set("session", session);
  c.set("csrf", await csrfToken(ctx.keys.consoleCsrfKey, `session:${session.idHash}`));
  return true;
}

/**
 * Pages of a signed-in account. Without a live session (whatever Authorization header the
 * request carries: API credentials never open a console page) the answer is a redirect to
 * log in, with no account data.
 */
export function signedIn(ctx: PlatformContext): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const hadCookie = readCookie(c, cookieNames(c.get("secure")).session) !== null;
    if (!(await loadSession(ctx, c))) {
      return c.redirect(`/console/login${hadCookie ? "?notice=session_ended" : ""}`, 303);
    }
    await next();
  };
}

/** Pages before signing in: a pre-session cookie binds their forms' CSRF token. */
export function preSession(ctx: PlatformContext): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const name = cookieNames(c.get("secure")).pre;
    let id = readCookie(c, name);
    if (!id && c.req.method === "GET") {
      id = newCookieId();
      setConsoleCookie(c, name, id, c.get("secure"), SESSION_LIFETIME_MS / 1000);
    }
    if (id) c.set("csrf", await csrfToken(ctx.keys.consoleCsrfKey, `pre:${id}`));
    await next();
  };
}

/**
 * Checks a state-changing request (origin, then the form's CSRF token) and returns its form
 * fields. 403 when either fails; nothing else has been looked at by then.
 */
export async function checkedForm(
  ctx: PlatformContext,
  c: ConsoleContext,
): Promise<Record<string, unknown>> {
  const problem = originProblem(c, ctx.settings.publicBaseUrl);
  if (problem) {
    throw new PageError(403, `This request was refused: ${problem}.`);
  }
  const session = c.get("session");
  const pre = readCookie(c, cookieNames(c.get("secure")).pre);
  const binding = session ? `session:${session.idHash}` : pre ? `pre:${pre}` : null;
  const type = c.req.header("content-type") ?? "";
  const body = /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)
    ? await c.req.parseBody({ all: true })
    : {};
  if (binding === null || !(await csrfMatches(ctx.keys.consoleCsrfKey, binding, body._csrf))) {
    throw new PageError(
      403,
      "This form expired or did not come from the console (cookies must be on). " +
        "Go back, reload the page and send it again.",
    );
  }
  return body;
}
