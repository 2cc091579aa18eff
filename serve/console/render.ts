/** Sends a console page: the doctype and the rendered JSX, as text/html. */
import { html } from "hono/html";
import type { ConsoleContext } from "./context.ts";

/** Renders a page with a status (200 unless told). */
export function page(
  c: ConsoleContext,
  node: unknown,
  status: 200 | 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503 = 200,
) {
  return c.html(html`<!DOCTYPE html>${node}`, status);
}
