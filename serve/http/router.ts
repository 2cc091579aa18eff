/** Router factory: every feature router validates with the shared 422 hook. */
import { OpenAPIHono, type z } from "@hono/zod-openapi";
import type { Selectable } from "kysely";
import { validationHook } from "./validation.ts";
import type { ContractsTable } from "../stores/schema.ts";

/** Who a runtime request acts for: set by the runtime-key middleware (serve/platform/auth.ts). */
export interface RuntimePrincipal {
  keyId: string;
  keyName: string;
  accountId: string;
  /** The key's contract as stored (the same row type as the platform's ContractRow). */
  contract: Selectable<ContractsTable>;
  /** Entitlements of the key (always within its contract's). */
  entitlements: readonly string[];
}

/** Who a management request acts for: set by the management-token middleware. */
export interface AccountPrincipal {
  accountId: string;
  email: string;
}

/** Variables every request can carry. */
export type AppEnv = {
  Variables: { requestId: string; runtime: RuntimePrincipal; account: AccountPrincipal };
};

/** A new feature router with the shared validation hook. */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

/** An OpenAPI response entry with a JSON body. */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

/** An OpenAPI request entry with a required JSON body. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { body: { required: true, content: { "application/json": { schema } } } };
}
