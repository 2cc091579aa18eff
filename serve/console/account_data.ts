/**
 * What the signed-in pages read about an account, through the platform's own functions, kept
 * in memory per server instance for a moment so that page views do not each go to the
 * database:
 * - the account's keys and contracts, and its feedback, for PAGE_DATA_CACHE_MS (2 s); the
 *   contract in force is picked from the kept contracts at each view, so an end date is exact;
 * - the usage page's figures (30-day history, the contract's windows) for USAGE_CACHE_MS
 *   (1 s, the usage meter's own flush interval), and only while this instance's meter holds no
 *   unwritten records: when it does, they are written and the figures read afresh, so a call
 *   this instance served shows on its next usage view.
 * This instance's console writes drop the kept copy at once: creating or revoking a key, and
 * sending feedback. Changes made elsewhere (the management API, another replica, an operator,
 * the meter's background write of keys' last use) show within those times.
 */
import type { PlatformContext } from "../platform/mod.ts";
import { listKeys } from "../platform/api_keys.ts";
import { type ContractRow, inForce, listContracts } from "../platform/contracts.ts";
import { listFeedback } from "../platform/feedback.ts";
import { usageHistory } from "../platform/usage.ts";
import { TtlCache } from "./cache.ts";

/** Keys, contracts and feedback are kept this long by the instance that read them. */
export const PAGE_DATA_CACHE_MS = 2_000;
/** The usage page's figures are kept this long (and only while the meter has nothing unwritten). */
export const USAGE_CACHE_MS = 1_000;

type Keys = Awaited<ReturnType<typeof listKeys>>;
type Feedback = Awaited<ReturnType<typeof listFeedback>>;
type Status = Awaited<ReturnType<PlatformContext["limits"]["status"]>>;

/** The usage page's figures. */
export interface UsageFigures {
  history: Awaited<ReturnType<typeof usageHistory>>;
  contract: ContractRow | null;
  status: Status | null;
}

/** One instance's kept account data. */
class AccountData {
  readonly keys: TtlCache<string, Keys>;
  readonly contracts: TtlCache<string, ContractRow[]>;
  readonly feedback: TtlCache<string, Feedback>;
  readonly usage: TtlCache<string, UsageFigures>;

  constructor(clock: () => Date) {
    this.keys = new TtlCache(PAGE_DATA_CACHE_MS, clock);
    this.contracts = new TtlCache(PAGE_DATA_CACHE_MS, clock);
    this.feedback = new TtlCache(PAGE_DATA_CACHE_MS, clock);
    this.usage = new TtlCache(USAGE_CACHE_MS, clock);
  }
}

const kept = new WeakMap<PlatformContext, AccountData>();

function dataOf(ctx: PlatformContext): AccountData {
  let data = kept.get(ctx);
  if (!data) kept.set(ctx, data = new AccountData(ctx.clock));
  return data;
}

/** The account's keys, newest first (listKeys). */
export function accountKeys(ctx: PlatformContext, accountId: string): Promise<Keys> {
  return dataOf(ctx).keys.get(accountId, () => listKeys(ctx.db, accountId));
}

/** The newest contract in force at `now` (currentContract), from the account's contracts. */
export async function accountContract(
  ctx: PlatformContext,
  accountId: string,
  now: Date,
): Promise<ContractRow | null> {
  const contracts = await dataOf(ctx).contracts.get(
    accountId,
    () => listContracts(ctx.db, accountId),
  );
  return contracts.find((c) => inForce(c, now)) ?? null;
}

/** The account's feedback, newest first (listFeedback). */
export function accountFeedback(ctx: PlatformContext, accountId: string): Promise<Feedback> {
  return dataOf(ctx).feedback.get(accountId, () => listFeedback(ctx.db, accountId));
}

/** The usage page's figures: usageHistory, the contract in force and its windows. */
export async function accountUsage(
  ctx: PlatformContext,
  accountId: string,
  now: Date,
): Promise<UsageFigures> {
  const usage = dataOf(ctx).usage;
  const read = async () => {
    const [history, contract] = await Promise.all([
      usageHistory(ctx.db, accountId, now),
      accountContract(ctx, accountId, now),
    ]);
    return { history, contract, status: contract ? await ctx.limits.status(contract) : null };
  };
  if (ctx.meter.pending > 0) {
    // Calls this instance served are not all written yet: write them, then read afresh.
    await ctx.meter.flush();
    usage.delete(accountId);
  }
  return await usage.get(accountId, read);
}

/** Drops the kept keys of the account (this instance created or revoked one). */
export function forgetKeys(ctx: PlatformContext, accountId: string): void {
  dataOf(ctx).keys.delete(accountId);
}

/** Drops the kept feedback of the account (this instance stored some). */
export function forgetFeedback(ctx: PlatformContext, accountId: string): void {
  dataOf(ctx).feedback.delete(accountId);
}
