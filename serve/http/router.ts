/** Router factory: every feature router validates with the shared 422 hook. */
import { OpenAPIHono, type z } from "@hono/zod-openapi";
import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
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

/**
 * A router that keeps the match of each path without parameters (the runtime routes, health,
 * the documents), up to `limit` of them, in front of Hono's own (`SmartRouter`, which this app's
 * paths put on its `TrieRouter`: its `RegExpRouter` refuses `/api/v1/occupation/:onet_code` beside
 * `/api/v1/occupation/profile/:onet_code`). The trie builds every request's match anew, one array
 * and one parameter object per middleware and handler on the path: about 2.7 KB a request that
 * lived as long as the request, often long enough to reach the old generation. A cached match is
 * the same arrays for every request of that method and path; Hono reads them and never writes them.
 * Paths with parameters are matched every time. (Every route is added before the first match:
 * Hono's SmartRouter refuses later ones; adding still clears the cache.)
 */
export class StaticMatchCache<T> implements Router<T> {
  readonly name: string;
  readonly #matches = new Map<string, Result<T>>();

  constructor(
    readonly inner: Router<T> = new SmartRouter({
      routers: [new RegExpRouter(), new TrieRouter()],
    }),
    readonly limit = 256,
  ) {
    this.name = `StaticMatchCache(${inner.name})`;
  }

  add(method: string, path: string, handler: T): void {
    this.#matches.clear();
    this.inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    const known = this.#matches.get(key);
    if (known) return known;
    const result = this.inner.match(method, path);
    if (this.#matches.size < this.limit && !hasParams(result)) this.#matches.set(key, result);
    return result;
  }
}

/** Whether a match carries path parameters (then it depends on more than the route). */
function hasParams<T>(result: Result<T>): boolean {
  if (result.length === 2 && result[1].length > 0) return true;
  for (const [, params] of result[0]) {
    for (const _ in params) return true;
  }
  return false;
}
