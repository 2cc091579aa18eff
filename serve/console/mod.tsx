/**
 * The developer console: server-rendered pages under /console for signing up, confirming,
 * logging in and out, password recovery, API keys, usage, trying the API and feedback. HTML,
 * not API: none of it is in /openapi.json. Its session cookie opens console pages only, and
 * API credentials open no console page (see session.ts, csrf.ts and guard.ts).
 */
import { Hono } from "hono";
import { ApiError } from "../http/errors.ts";
import { type ConsoleDeps, type ConsoleEnv, frameOf, PageError } from "./context.ts";
import { consoleHeaders } from "./guard.ts";
import { authRoutes } from "./routes_auth.tsx";
import { accountRoutes } from "./routes_account.tsx";
import { page } from "./render.ts";
import { MessagePage } from "./pages/auth.tsx";

export type { ConsoleDeps } from "./context.ts";
export { SESSION_IDLE_MS, SESSION_LIFETIME_MS } from "./session.ts";

/** The console's icon: a small blue square with "OI". */
const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="6" fill="#1d4ed8"/>' +
  '<text x="16" y="21" font-family="sans-serif" font-size="14" font-weight="700" ' +
  'fill="#fff" text-anchor="middle">OI</text></svg>';

const TITLES: Record<number, string> = {
  400: "This request cannot be used",
  401: "Not signed in",
  403: "Refused",
  404: "Page not found",
  409: "Conflict",
  413: "Too large",
  415: "Not a form",
  429: "Too many requests",
  503: "Server busy",
};

/** Every console route, plus the old reset link's redirect. */
export function consoleRoutes(deps: ConsoleDeps): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.use("/console", consoleHeaders(deps.platform));
  app.use("/console/*", consoleHeaders(deps.platform));
  // Reset emails sent before the console linked to /reset-password?token=…: they still work.
  app.get("/reset-password", (c) => {
    const search = new URL(c.req.url).search;
    return c.redirect(`/console/reset${search}`, 302);
  });
  app.get("/console/favicon.svg", (c) => {
    c.header("content-type", "image/svg+xml");
    return c.body(FAVICON);
  });
  app.route("/", authRoutes(deps));
  app.route("/", accountRoutes(deps));
  app.all("/console/*", () => {
    throw new PageError(404, "There is no console page at this address.");
  });
  app.onError((error, c) => {
    const known = error instanceof PageError
      ? { status: error.status, message: error.message }
      : error instanceof ApiError && error.code === "payload_too_large"
      ? { status: 413 as const, message: "The form is too large." }
      : null;
    if (!known) {
      deps.platform.logger.error("unhandled console error", {
        request_id: c.get("requestId"),
        method: c.req.method,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      });
    }
    const status = known?.status ?? 500;
    return page(
      c,
      <MessagePage
        frame={frameOf(c)}
        title={TITLES[status] ?? "Something went wrong"}
        kind="bad"
        message={known?.message ??
          `An unexpected error occurred. Quote request id ${c.get("requestId")} when reporting it.`}
        links={[["/console", "Back to the console"]]}
      />,
      status,
    );
  });
  return app;
}
