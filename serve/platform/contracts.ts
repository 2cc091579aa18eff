/**
 * Contracts: a plan with a validity period, limits and entitlements. A trial or active
 * contract whose end has passed reads as expired; no job has to flip it. The current contract
 * is the newest one in force.
 */
import type { Kysely, Selectable } from "kysely";
import type { ContractsTable, DB } from "../stores/schema.ts";
import type { Entitlement } from "./entitlements.ts";

/** A contract row. */
export type ContractRow = Selectable<ContractsTable>;

/** The Beta plan, as configured when a contract is provisioned. */
export interface BetaPlan {
  days: number;
  ratePerMinute: number;
  monthlyQuota: number;
  concurrency: number;
  entitlements: readonly Entitlement[];
}

/** A contract's status at `now`. */
export function effectiveStatus(contract: ContractRow, now: Date): ContractRow["status"] {
  if (
    (contract.status === "trial" || contract.status === "active") &&
    contract.ends_at !== null && contract.ends_at.getTime() <= now.getTime()
  ) return "expired";
  if (contract.status === "trial" || contract.status === "active") {
    if (contract.starts_at.getTime() > now.getTime()) return "expired"; // not yet in force
  }
  return contract.status;
}

/** Whether a contract is in force at `now`. */
export function inForce(contract: ContractRow, now: Date): boolean {
  const status = effectiveStatus(contract, now);
  return status === "trial" || status === "active";
}

/** Every contract of an account, newest first. */
export function listContracts(db: Kysely<DB>, accountId: string): Promise<ContractRow[]> {
  return db.selectFrom("contracts").selectAll().where("account_id", "=", accountId)
    .orderBy("starts_at", "desc").orderBy("id", "desc").execute();
}

/** The newest contract in force at `now`, if any. */
export async function currentContract(
  db: Kysely<DB>,
  accountId: string,
  now: Date,
): Promise<ContractRow | null> {
  return (await listContracts(db, accountId)).find((c) => inForce(c, now)) ?? null;
}

/** Provisions a Beta trial contract unless one is already in force; returns the current one. */
export async function provisionBeta(
  db: Kysely<DB>,
  accountId: string,
  plan: BetaPlan,
  now: Date,
): Promise<ContractRow> {
  const existing = await currentContract(db, accountId, now);
  if (existing) return existing;
  return await db.insertInto("contracts").values({
    account_id: accountId,
    plan: "beta",
    status: "trial",
    starts_at: now,
    ends_at: new Date(now.getTime() + plan.days * 86_400_000),
    rate_per_minute: plan.ratePerMinute,
    monthly_quota: plan.monthlyQuota,
    concurrency: plan.concurrency,
    entitlements: [...plan.entitlements],
    created_at: now,
    updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
}

/** The public view of a contract. */
export function contractView(contract: ContractRow, now: Date) {
  return {
    contract_id: Number(contract.id),
    plan: contract.plan,
    status: effectiveStatus(contract, now),
    starts_at: contract.starts_at.toISOString(),
    ends_at: contract.ends_at?.toISOString() ?? null,
    rate_per_minute: contract.rate_per_minute,
    monthly_quota: contract.monthly_quota,
    concurrency_limit: contract.concurrency,
    entitlements: [...contract.entitlements].sort(),
  };
}
