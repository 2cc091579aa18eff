/**
 * Cross-site request forgery defences of the console's state-changing requests (every POST):
 * 1. Origin. A browser names the page's origin in `Origin`; it must be this server's own
 *    origin (as the request reached it) or PUBLIC_BASE_URL's. The console sends
 *    `Referrer-Policy: no-referrer`, under which browsers send `Origin: null` on form posts;
 *    then `Sec-Fetch-Site: same-origin` (set by the browser, not by page script) must vouch
 *    for it instead. A request with neither proof is refused.
 * 2. A token in the form (`_csrf`): an HMAC, under a key derived from the service's root
 *    secret, of the session id (signed in) or of a random pre-session cookie (signing up,
 *    logging in). A page of another site can neither read it nor compute it.
 * Either failing is 403, before anything else is looked at.
 */
import type { Context } from "hono";
import { base64url } from "../platform/secrets.ts";

const encoder = new TextEncoder();

/** Tokens already computed, per key (a page view reuses its session's token): at most 10,000. */
const computed = new WeakMap<CryptoKey, Map<string, string>>();
const COMPUTED_MAX = 10_000;

/** The CSRF token bound to a session (`session:<id hash>`) or pre-session cookie (`pre:<id>`). */
export async function csrfToken(key: CryptoKey, binding: string): Promise<string> {
  let tokens = computed.get(key);
  if (!tokens) computed.set(key, tokens = new Map());
  const known = tokens.get(binding);
  if (known) return known;
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`console-csrf:${binding}`));
  const token = base64url(new Uint8Array(mac).slice(0, 24));
  if (tokens.size >= COMPUTED_MAX) tokens.delete(tokens.keys().next().value!);
  tokens.set(binding, token);
  return token;
}

/** Whether `given` is the token for `binding` (constant-time comparison). */
export async function csrfMatches(
  key: CryptoKey,
  binding: string,
  given: unknown,
): Promise<boolean> {
  if (typeof given !== "string" || given.length !== 32) return false;
  const expected = await csrfToken(key, binding);
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return diff === 0;
}

/** Why a request's origin is not accepted, or null when it is. */
export function originProblem(c: Context, publicBaseUrl: string): string | null {
  const origin = c.req.header("origin");
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined && site !== "same-origin") {
    return "the request came from another site";
  }
  if (origin !== undefined && origin !== "null") {
    const allowed = [new URL(c.req.url).origin, new URL(publicBaseUrl).origin];
    return allowed.includes(origin) ? null : "the request came from another origin";
  }
  return site === "same-origin" ? null : "the request did not say where it came from";
}
