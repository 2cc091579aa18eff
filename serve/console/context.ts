/** What console handlers share: the platform, the request's nonce, session and CSRF token. */
import type { Context } from "hono";
import type { ZodError } from "zod";
import type { AppEnv } from "../http/router.ts";
import type { PlatformContext } from "../platform/mod.ts";
import type { ConsoleSession } from "./session.ts";
import type { FieldErrors, Frame } from "./pages/layout.tsx";

/** Variables of a console request. */
export type ConsoleEnv = {
  Variables: AppEnv["Variables"] & {
    /** The CSP nonce of this response's inline style and script. */
    nonce: string;
    /** Whether cookies get the Secure flag (the console is served over https). */
    secure: boolean;
    /** The signed-in session, when there is one. */
    session: ConsoleSession | null;
    /** The CSRF token forms of this page carry (bound to the session or pre-session cookie). */
    csrf: string;
  };
};

/** A console request's context. */
export type ConsoleContext = Context<ConsoleEnv>;

/** The console's dependencies. */
export interface ConsoleDeps {
  platform: PlatformContext;
}

/** A page that ends the request with a status and a plain message (rendered by onError). */
export class PageError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503,
    message: string,
  ) {
    super(message);
    this.name = "PageError";
  }
}

/** The page frame of this request: nonce, and the viewer when signed in. */
export function frameOf(c: ConsoleContext): Frame {
  const session = c.get("session");
  return {
    nonce: c.get("nonce"),
    viewer: session ? { email: session.email, csrf: c.get("csrf") } : null,
  };
}

/** A submitted form field as text (files and repeated values are not text). */
export function formText(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === "string" ? value : "";
}

/** Field problems from a zod failure, in words a person reads (never the submitted value). */
export function fieldErrors(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const name = String(issue.path[0] ?? "form");
    if (errors[name]) continue;
    const i = issue as { code: string; minimum?: number; maximum?: number; origin?: string };
    errors[name] = i.code === "too_small" && i.origin === "string"
      ? (i.minimum === 1 ? "Enter a value" : `Use at least ${i.minimum} characters`)
      : i.code === "too_big" && i.origin === "string"
      ? `Use at most ${i.maximum} characters`
      : i.code === "too_small"
      ? `Must be at least ${i.minimum}`
      : i.code === "too_big"
      ? `Must be at most ${i.maximum}`
      : i.code === "invalid_type" || i.code === "invalid_value"
      ? "Choose or enter a valid value"
      : issue.message;
  }
  return errors;
}
