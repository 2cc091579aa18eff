/** Helpers for console tests: a cookie jar, page loads and form posts as a browser without JS. */
import assert from "node:assert/strict";
import type { TestApp } from "./platform.ts";
import { PASSWORD } from "./platform.ts";
import { tokenFromEmail } from "./helpers.ts";

/** The cookies a browser would hold for the test origin. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  /** Takes in a response's Set-Cookie headers (Max-Age=0 or an empty value deletes). */
  take(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";").map((s) => s.trim());
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      const gone = value === "" ||
        attributes.some((a) => /^max-age=0$/i.test(a) || /^expires=Thu, 01 Jan 1970/i.test(a));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** The Cookie header to send. */
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/** A page as a browser saw it. */
export interface Page {
  status: number;
  headers: Headers;
  html: string;
  location: string | null;
}

/** The origin app.request() requests come from. */
export const ORIGIN = "http://localhost";

/** Loads a console page with the jar's cookies (redirects are not followed). */
export async function getPage(
  t: TestApp,
  jar: CookieJar,
  path: string,
  headers: Record<string, string> = {},
): Promise<Page> {
  const response = await t.app.request(path, {
    headers: { cookie: jar.header(), ...headers },
  });
  jar.take(response.headers);
  return {
    status: response.status,
    headers: response.headers,
    html: await response.text(),
    location: response.headers.get("location"),
  };
}

/** The CSRF token of the first form on a page. */
export function csrfOf(html: string): string {
  const match = html.match(/name="_csrf" value="([^"]+)"/);
  assert.ok(match, "the page has a form with a CSRF token");
  return match[1];
}

/** Posts a form the way a browser with JavaScript off does (Origin set, urlencoded). */
export async function postForm(
  t: TestApp,
  jar: CookieJar,
  path: string,
  fields: Record<string, string | string[]>,
  headers: Record<string, string> = { origin: ORIGIN },
): Promise<Page> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  }
  const response = await t.app.request(path, {
    method: "POST",
    headers: {
      cookie: jar.header(),
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: body.toString(),
  });
  jar.take(response.headers);
  return {
    status: response.status,
    headers: response.headers,
    html: await response.text(),
    location: response.headers.get("location"),
  };
}

/** Loads the form page at `formPath`, then posts `fields` with its CSRF token. */
export async function submit(
  t: TestApp,
  jar: CookieJar,
  formPath: string,
  action: string,
  fields: Record<string, string | string[]>,
): Promise<Page> {
  const form = await getPage(t, jar, formPath);
  assert.equal(form.status, 200, `GET ${formPath}`);
  return await postForm(t, jar, action, { _csrf: csrfOf(form.html), ...fields });
}

/** Signs up, confirms and logs in through the console's forms; the jar holds the session. */
export async function consoleSignIn(
  t: TestApp,
  email = "ada@example.com",
): Promise<CookieJar> {
  const jar = new CookieJar();
  const signup = await submit(t, jar, "/console/signup", "/console/signup", {
    email,
    password: PASSWORD,
    full_name: "Ada Lovelace",
    company_name: "Engines Ltd",
  });
  assert.equal(signup.status, 303, signup.html);
  const mail = (await t.outbox()).filter((m) => m.to === email && m.kind === "verify_email").at(-1);
  assert.ok(mail, "a verification email");
  const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
  const token = tokenFromEmail(mail.text);
  const verified = await submit(t, jar, `${link.pathname}${link.search}`, "/console/verify", {
    token,
  });
  assert.equal(verified.location, "/console/login?notice=verified");
  const login = await submit(t, jar, "/console/login", "/console/login", {
    email,
    password: PASSWORD,
  });
  assert.equal(login.status, 303, login.html);
  assert.equal(login.location, "/console/keys");
  return jar;
}
