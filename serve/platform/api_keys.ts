/**
 * Runtime API keys: created bound to the contract in force, shown raw once, stored as a
 * SHA-256 hash; listed and fetched as metadata only; revoked for good.
 */
import type { Kysely, Selectable } from "kysely";
import type { ApiKeysTable, DB } from "../stores/schema.ts";
import { ApiError } from "../http/errors.ts";
import { hashKey, type KeyStore } from "./auth.ts";
import { currentContract } from "./contracts.ts";
import { generateKey, keyHints } from "./keys.ts";

type KeyRow = Selectable<ApiKeysTable>;

/** The metadata view of a key; never the key or its hash. */
export function keyView(row: KeyRow) {
  return {
    key_id: Number(row.id),
    name: row.name,
    prefix: row.prefix,
    last_four: row.last_four,
    status: row.status,
    contract_id: Number(row.contract_id),
    entitlements: [...row.entitlements].sort(),
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}

/** Creates a key bound to the contract in force; the raw key is returned only here. */
export async function createKey(
  db: Kysely<DB>,
  accountId: string,
  input: { name: string; entitlements?: string[] },
  now: Date,
) {
  return await db.transaction().execute(async (trx) => {
    // Serialise key creation per account so the live-name check and insert cannot race.
    await trx.selectFrom("accounts").select("id").where("id", "=", accountId).forUpdate().execute();
    const contract = await currentContract(trx, accountId, now);
    if (!contract) {
      throw new ApiError("forbidden", "the account has no active or trial contract", {
        reason: "no_contract",
      });
    }
    const wanted = input.entitlements ?? contract.entitlements;
    const missing = wanted.filter((e) => !contract.entitlements.includes(e));
    if (missing.length > 0) {
      throw new ApiError(
        "forbidden",
        `the current contract does not include: ${missing.sort().join(", ")}`,
        { reason: "entitlement_not_in_contract" },
      );
    }
    const taken = await trx.selectFrom("api_keys").select("id").where("account_id", "=", accountId)
      .where("name", "=", input.name).where("status", "=", "active").executeTakeFirst();
    if (taken) {
      throw new ApiError("conflict", "an active key with this name already exists", {
        errors: [{
          loc: ["body", "name"],
          msg: "Name is already used by an active key",
          type: "unique",
        }],
      });
    }
    const key = generateKey();
    const row = await trx.insertInto("api_keys").values({
      account_id: accountId,
      contract_id: contract.id,
      name: input.name,
      key_hash: hashKey(key),
      ...keyHints(key),
      entitlements: [...new Set(wanted)].sort(),
      created_at: now,
    }).returningAll().executeTakeFirstOrThrow();
    return { key, ...keyView(row) };
  });
}

/** Every key of the account, newest first. */
export async function listKeys(db: Kysely<DB>, accountId: string) {
  const rows = await db.selectFrom("api_keys").selectAll().where("account_id", "=", accountId)
    .orderBy("created_at", "desc").orderBy("id", "desc").execute();
  return rows.map(keyView);
}

/**
 * The key a reference names: digits are the numeric key id; anything else is a name, which
 * picks the live key of that name, or else the newest revoked one.
 */
async function findKey(db: Kysely<DB>, accountId: string, ref: string): Promise<KeyRow> {
  let query = db.selectFrom("api_keys").selectAll().where("account_id", "=", accountId);
  query = /^\d{1,18}$/.test(ref)
    ? query.where("id", "=", ref)
    : query.where("name", "=", ref).orderBy("status", "asc").orderBy("id", "desc");
  const row = await query.executeTakeFirst();
  if (!row) throw new ApiError("not_found", "no key of this account matches the reference");
  return row;
}

/** One key's metadata. */
export async function getKey(db: Kysely<DB>, accountId: string, ref: string) {
  return keyView(await findKey(db, accountId, ref));
}

/** Revokes a key for good (idempotent) and drops it from this instance's cache at once. */
export async function revokeKey(
  db: Kysely<DB>,
  keyStore: KeyStore,
  accountId: string,
  ref: string,
  now: Date,
) {
  const key = await findKey(db, accountId, ref);
  const row = key.status === "revoked" ? key : await db.updateTable("api_keys")
    .set({ status: "revoked", revoked_at: now }).where("id", "=", key.id)
    .returningAll().executeTakeFirstOrThrow();
  keyStore.invalidate(row.key_hash);
  return keyView(row);
}
