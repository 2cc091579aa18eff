/** Router factory: every feature router validates with the shared 422 hook. */
import { OpenAPIHono } from "@hono/zod-openapi";
import { validationHook } from "./validation.ts";

/** Variables every request carries. */
export type AppEnv = { Variables: { requestId: string } };

/** A new feature router with the shared validation hook. */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}
