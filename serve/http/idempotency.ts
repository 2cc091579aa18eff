/**
 * Idempotency-Key on creating POSTs, the way Stripe does it. Mounted on a route after its
 * authentication (it scopes keys by the account the credential belongs to):
 * - no header: the request runs as usual;
 * - a new key: a row is reserved, the handler runs, and its answer (status, type, body) is kept
 *   for 24 hours, unless it was a 5xx (then the reservation is dropped so a retry can run);
 * - the same key and the same request (method, path, body): the first answer is replayed,
 *   with `Idempotent-Replayed: true`;
 * - the same key and a different request: 422 `idempotency_key_reused`;
 * - the same key while the first request still runs: 409.
 * Keys are 1-255 visible ASCII characters, per account; expired ones are replaced. Kept answers
 * are encrypted at rest (AES-GCM with a key derived from the service's root secret): the first
 * answer of a key creation holds the raw API key, which must never sit in the database in clear.
 */
import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { Kysely } from "kysely";
import type { DB } from "../stores/schema.ts";
import type { AppEnv } from "./router.ts";
import { ApiError } from "./errors.ts";

/** How long an idempotency key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_HEADER = "idempotency-key";

/** The OpenAPI description of the header, for the routes that accept it. */
export const IDEMPOTENCY_DOC = "Optional `Idempotency-Key` header (1-255 visible ASCII " +
  "characters): the same key with the same request within 24 hours replays the first answer " +
  "(header `Idempotent-Replayed: true`); with a different request it is 422 " +
  "`idempotency_key_reused`; while the first is still running, 409. Keys are per account.";

/** Encrypts kept answers at rest and decrypts them for a replay (given by the platform). */
export interface Sealer {
  seal(text: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

/** The middleware; `sealer` encrypts the kept answers, `clock` is the service's. */
export function idempotent(
  db: Kysely<DB>,
  sealer: Sealer,
  clock: () => Date = () => new Date(),
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined) return await next();
    if (!KEY_PATTERN.test(key)) {
      throw new ApiError("validation_failed", "the Idempotency-Key header is malformed", {
        errors: [{
          loc: ["header", IDEMPOTENCY_HEADER],
          msg: "must be 1-255 visible ASCII characters",
          type: "idempotency_key_format",
        }],
      });
    }
    const account = c.get("runtime")?.accountId ?? c.get("account")?.accountId;
    if (!account) return await next(); // mounted before authentication: nothing to scope by
    // Through Hono's body cache (the JSON check may have read the body already): for a JSON
    // body this is its parsed value serialised again, so whitespace does not make it differ.
    const body = await c.req.text();
    const hash = createHash("sha256").update(`${c.req.method}\n${c.req.path}\n`).update(body)
      .digest("hex");
    const now = clock();
    await db.deleteFrom("idempotency_keys").where("account_id", "=", account)
      .where("idempotency_key", "=", key).where("expires_at", "<=", now).execute();
    const reserved = await db.insertInto("idempotency_keys").values({
      account_id: account,
      idempotency_key: key,
      method: c.req.method,
      path: c.req.path,
      request_sha256: hash,
      response_status: null,
      response_type: null,
      response_body: null,
      created_at: now,
      expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    }).onConflict((oc) => oc.columns(["account_id", "idempotency_key"]).doNothing())
      .returning(["idempotency_key"]).executeTakeFirst();
    if (!reserved) {
      const first = await db.selectFrom("idempotency_keys").selectAll()
        .where("account_id", "=", account).where("idempotency_key", "=", key)
        .executeTakeFirst();
      if (!first) throw new ApiError("conflict", "the idempotency key changed hands; retry");
      if (first.request_sha256 !== hash) {
        throw new ApiError(
          "idempotency_key_reused",
          "this Idempotency-Key was used with a different request in the last 24 hours",
        );
      }
      if (first.response_status === null) {
        throw new ApiError(
          "conflict",
          "a request with this Idempotency-Key is still running; retry after it finishes",
        );
      }
      const body = first.response_body === null ? "" : await sealer.open(first.response_body);
      return c.body(body, first.response_status as 200, {
        "content-type": first.response_type ?? "application/json",
        "idempotent-replayed": "true",
      });
    }
    try {
      await next();
    } catch (error) {
      await release(db, account, key);
      throw error;
    }
    const status = c.res.status;
    if (status >= 500 || c.error) {
      await release(db, account, key);
      return;
    }
    const text = await c.res.clone().text();
    await db.updateTable("idempotency_keys").set({
      response_status: status,
      response_type: c.res.headers.get("content-type"),
      response_body: await sealer.seal(text),
    }).where("account_id", "=", account).where("idempotency_key", "=", key).execute();
  };
}

async function release(db: Kysely<DB>, account: string, key: string) {
  await db.deleteFrom("idempotency_keys").where("account_id", "=", account)
    .where("idempotency_key", "=", key).where("response_status", "is", null).execute();
}
