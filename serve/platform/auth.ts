/**
 * Authentication for the two credential kinds (spec section 5):
 * - runtime routes take only runtime API keys; a management token there is 403;
 * - management routes take only management tokens; a runtime key there is 403.
 * Missing or invalid credentials are 401 with `WWW-Authenticate: Bearer`. Runtime requests
 * then pass the contract's rate, quota and concurrency limits and are metered.
 *
 * Key lookups are cached for KEY_CACHE_TTL_MS (5 s by default). Revoking a key drops it from
 * the cache of the instance that revoked it at once; other instances stop accepting it when
 * their cached entry ages out, so within KEY_CACHE_TTL_MS. Contract limit and entitlement
 * changes made with `deno task admin` reach running instances the same way.
 */
import { createHash } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { Kysely } from "kysely";
import type { DB } from "../stores/schema.ts";
import { ApiError } from "../http/errors.ts";
import { matchedRoute } from "../http/middleware.ts";
import type { AppEnv, RuntimePrincipal } from "../http/router.ts";
import { type ContractRow, effectiveStatus } from "./contracts.ts";
import { isWellFormedKey, KEY_PREFIX } from "./keys.ts";
import { looksLikeJwt, verifyManagementToken } from "./tokens.ts";
import type { Admission, LimitGate, WindowStatus } from "../http/limits.ts";
import type { UsageMeter } from "../http/metering.ts";

/** A key as the cache holds it. */
export interface KeyRecord {
  keyId: string;
  keyName: string;
  accountId: string;
  status: "active" | "revoked";
  entitlements: string[];
  contract: ContractRow;
}

const MAX_CACHED = 10_000;
const MAX_UNKNOWN = 1_000;

/** SHA-256 hex of a raw key: what the database stores. */
export function hashKey(raw: string): string {
  return createHash("sha256").update(raw).digest("hex");
}

/** Looks runtime keys up by hash, with a short cache. */
export class KeyStore {
  #cache = new Map<string, { record: KeyRecord | null; at: number }>();
  #unknown = new Map<string, { record: null; at: number }>();
  #loading = new Map<string, Promise<KeyRecord | null>>();
  #epoch = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly ttlMs: number,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The key with this hash (active or revoked), or null when there is none. */
  lookup(keyHash: string): Promise<KeyRecord | null> {
    const now = this.clock().getTime();
    const hit = this.#cache.get(keyHash) ?? this.#unknown.get(keyHash);
    if (hit && now - hit.at < this.ttlMs) return Promise.resolve(hit.record);
    // Requests in flight when an entry expires share one database read.
    const shared = this.#loading.get(keyHash);
    if (shared) return shared;
    const pending: Promise<KeyRecord | null> = this.#load(keyHash, now).finally(() => {
      if (this.#loading.get(keyHash) === pending) this.#loading.delete(keyHash);
    });
    this.#loading.set(keyHash, pending);
    return pending;
  }

  async #load(keyHash: string, now: number): Promise<KeyRecord | null> {
    const epoch = this.#epoch;
    const row = await this.db.selectFrom("api_keys as k")
      .innerJoin("contracts as c", "c.id", "k.contract_id")
      .select([
        "k.id as key_id",
        "k.name as key_name",
        "k.account_id",
        "k.status as key_status",
        "k.entitlements as key_entitlements",
      ])
      .selectAll("c")
      .where("k.key_hash", "=", keyHash)
      .executeTakeFirst();
    const record: KeyRecord | null = row
      ? {
        keyId: row.key_id,
        keyName: row.key_name,
        accountId: row.account_id,
        status: row.key_status,
        entitlements: row.key_entitlements,
        contract: {
          id: row.id,
          account_id: row.account_id,
          plan: row.plan,
          status: row.status,
          starts_at: row.starts_at,
          ends_at: row.ends_at,
          rate_per_minute: row.rate_per_minute,
          monthly_quota: row.monthly_quota,
          concurrency: row.concurrency,
          entitlements: row.entitlements,
          created_at: row.created_at,
          updated_at: row.updated_at,
        },
      }
      : null;
    // A revocation while this read was running may not be in what it read: don't cache it.
    if (this.ttlMs > 0 && epoch === this.#epoch) {
      // Unknown keys (anyone can make well-formed ones) get a small cache of their own, so a
      // stream of them cannot push real keys out.
      const cache = record ? this.#cache : this.#unknown;
      if (cache.size >= (record ? MAX_CACHED : MAX_UNKNOWN)) {
        cache.delete(cache.keys().next().value!);
      }
      cache.set(keyHash, { record, at: now });
    }
    return record;
  }

  /** Drops a key from this instance's cache (after revocation). */
  invalidate(keyHash: string): void {
    this.#epoch++;
    this.#cache.delete(keyHash);
    this.#loading.delete(keyHash);
  }
}

function bearer(c: Context): string | null {
  const header = c.req.header("authorization");
  if (!header) return null;
  const match = header.match(/^Bearer[ ]+([^\s]{1,4096})\s*$/i);
  return match ? match[1] : "";
}

function unauthorized(realm: string, detail: string, error?: string): ApiError {
  const challenge = `Bearer realm="${realm}"${error ? `, error="${error}"` : ""}`;
  return new ApiError("unauthorized", detail, {}, { "www-authenticate": challenge });
}

function rateHeaders(minute: WindowStatus, month: WindowStatus, now: number) {
  const secs = (d: Date) => Math.max(0, Math.ceil((d.getTime() - now) / 1000));
  const monthWindow = Math.round((month.resets_at.getTime() - month.window_start.getTime()) / 1000);
  return {
    "ratelimit-policy":
      `"minute";q=${minute.limit};w=60, "month";q=${month.limit};w=${monthWindow}`,
    "ratelimit": `"minute";r=${minute.remaining};t=${secs(minute.resets_at)}, ` +
      `"month";r=${month.remaining};t=${secs(month.resets_at)}`,
  };
}

const REFUSAL_DETAIL = {
  rate: "the contract's requests-per-minute limit is reached",
  quota: "the contract's monthly request quota is used up",
  concurrency: "the contract's limit on concurrent requests is reached",
} as const;

/** What the runtime middleware needs. */
export interface RuntimeAuthDeps {
  keys: KeyStore;
  limits: LimitGate;
  meter: UsageMeter;
  jwtSecret: string;
  clock: () => Date;
}

/** Authenticates a runtime API key, enforces the contract's limits and meters the request. */
export function runtimeAuth(deps: RuntimeAuthDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const credential = bearer(c);
    if (!credential) {
      throw unauthorized("runtime", "send a runtime API key as Authorization: Bearer <key>");
    }
    if (!credential.startsWith(KEY_PREFIX) && looksLikeJwt(credential)) {
      if (await verifyManagementToken(deps.jwtSecret, credential, deps.clock())) {
        throw new ApiError(
          "forbidden",
          "management tokens are not accepted on runtime endpoints; send a runtime API key",
        );
      }
      throw unauthorized(
        "runtime",
        "the credential is not a valid runtime API key",
        "invalid_token",
      );
    }
    if (!isWellFormedKey(credential)) {
      throw unauthorized(
        "runtime",
        "the API key is malformed or its checksum does not match",
        "invalid_token",
      );
    }
    const record = await deps.keys.lookup(hashKey(credential));
    if (!record) throw unauthorized("runtime", "the API key is not recognised", "invalid_token");
    if (record.status === "revoked") {
      throw unauthorized("runtime", "the API key has been revoked", "invalid_token");
    }
    const now = deps.clock();
    const status = effectiveStatus(record.contract, now);
    if (status !== "trial" && status !== "active") {
      throw new ApiError("forbidden", `the contract this key is bound to is ${status}`);
    }
    const principal: RuntimePrincipal = {
      keyId: record.keyId,
      keyName: record.keyName,
      accountId: record.accountId,
      contract: record.contract,
      entitlements: record.entitlements.filter((e) => record.contract.entitlements.includes(e)),
    };
    c.set("runtime", principal);

    const meter = (statusCode: number) =>
      deps.meter.record({
        account_id: record.accountId,
        key_id: record.keyId,
        contract_id: record.contract.id,
        method: c.req.method,
        route: matchedRoute(c),
        status: statusCode,
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
        occurred_at: now,
      });

    let admission: Admission;
    try {
      admission = await deps.limits.admit(record.contract);
    } catch (error) {
      meter(500);
      throw error;
    }
    const headers = rateHeaders(admission.minute, admission.month, deps.clock().getTime());
    if (!admission.ok) {
      meter(429);
      throw new ApiError("rate_limited", REFUSAL_DETAIL[admission.reason], {
        limit: admission.reason,
      }, { ...headers, "retry-after": String(admission.retryAfterSeconds) });
    }
    try {
      await next();
    } finally {
      admission.release();
    }
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
    meter(c.res.status);
  };
}

/** Refuses runtime requests whose key (or contract) lacks an entitlement. */
export function requireEntitlement(name: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.get("runtime");
    if (!principal?.entitlements.includes(name)) {
      throw new ApiError(
        "forbidden",
        `this API key does not carry the ${name} entitlement`,
        { entitlement: name },
      );
    }
    await next();
  };
}

/** What the management middleware needs. */
export interface ManagementAuthDeps {
  db: Kysely<DB>;
  jwtSecret: string;
  clock: () => Date;
}

/** Authenticates a management token and loads its account. */
export function managementAuth(deps: ManagementAuthDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const credential = bearer(c);
    if (!credential) {
      throw unauthorized(
        "management",
        "send a management token from POST /api/v1/platform/login as Authorization: Bearer <token>",
      );
    }
    if (isWellFormedKey(credential)) {
      throw new ApiError(
        "forbidden",
        "runtime API keys are not accepted on account endpoints; send a management token",
      );
    }
    const claims = await verifyManagementToken(deps.jwtSecret, credential, deps.clock());
    if (!claims) {
      throw unauthorized(
        "management",
        "the management token is invalid or expired",
        "invalid_token",
      );
    }
    const account = await deps.db.selectFrom("accounts")
      .select(["id", "email", "status", "session_epoch"])
      .where("id", "=", claims.accountId).executeTakeFirst();
    if (
      !account || account.status !== "verified" || account.session_epoch !== claims.sessionEpoch
    ) {
      throw unauthorized("management", "the management token is no longer valid", "invalid_token");
    }
    c.set("account", { accountId: account.id, email: account.email });
    await next();
  };
}
