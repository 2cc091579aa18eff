/**
 * The operator commands behind `deno task admin`: change one account's contract (limits,
 * entitlements) or show it, or purge lapsed registrations and expired tokens now. Operators do this from a shell on the deployment, never over
 * HTTP, so no management endpoint can raise its own account's limits.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import type { DB } from "../stores/schema.ts";
import {
  type ContractRow,
  contractView,
  currentContract,
  inForce,
  listContracts,
} from "./contracts.ts";
import { type Entitlement, ENTITLEMENTS, isEntitlement } from "./entitlements.ts";
import { emailKey, normalizeEmail } from "./email_address.ts";
import { keyView, listKeys } from "./api_keys.ts";
import { purge, type PurgeCounts } from "./purge.ts";

/** The limits an operator may set, with the bounds the configuration also enforces. */
const LIMITS = {
  "rate-per-minute": { column: "rate_per_minute", max: 10_000_000 },
  "monthly-quota": { column: "monthly_quota", max: 2_000_000_000 },
  "concurrency": { column: "concurrency", max: 10_000 },
} as const;

type LimitFlag = keyof typeof LIMITS;

/** New values for some of a contract's limits. */
export interface LimitChanges {
  rate_per_minute?: number;
  monthly_quota?: number;
  concurrency?: number;
}

/** One parsed admin command; `email` is already normalised. */
export type AdminCommand =
  | { kind: "limits"; email: string; changes: LimitChanges }
  | { kind: "entitlements"; email: string; action: "add" | "remove"; entitlement: Entitlement }
  | { kind: "show"; email: string }
  | { kind: "purge"; afterDays: number | null };

/** How to call the CLI; printed with every usage error. */
export const ADMIN_USAGE = `usage:
  deno task admin limits --email <e> [--rate-per-minute N] [--monthly-quota N] [--concurrency N]
  deno task admin entitlements --email <e> --add <name> | --remove <name>
  deno task admin show --email <e>
  deno task admin purge [--after-days N]

  limits        sets limits of the account's contract in force (give at least one):
                  --rate-per-minute 1..10000000, --monthly-quota 1..2000000000,
                  --concurrency 1..10000
  entitlements  adds an entitlement to the contract in force, or removes it from the
                contract and from every key bound to that contract
                (names: ${ENTITLEMENTS.join(", ")})
  show          prints the account, its contracts and its keys (never hashes)
  purge         deletes lapsed registrations, email tokens and login-throttle entries past
                their expiry by more than --after-days 1..3650 (default PURGE_AFTER_DAYS, 7),
                as the server's timer does, and prints what it removed`;

/** Bad command-line input; `message` says what is wrong, `usage` how to call the CLI. */
export class AdminUsageError extends Error {
  readonly usage = ADMIN_USAGE;
  constructor(message: string, readonly helpRequested = false) {
    super(message);
    this.name = "AdminUsageError";
  }
}

/** A command that cannot be carried out against the database as it stands. */
export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AdminError";
  }
}

const FLAGS: Record<AdminCommand["kind"], readonly string[]> = {
  limits: ["email", ...Object.keys(LIMITS)],
  entitlements: ["email", "add", "remove"],
  show: ["email"],
  purge: ["after-days"],
};

function isCommandName(name: string): name is AdminCommand["kind"] {
  return Object.hasOwn(FLAGS, name);
}

/** Reads `--name value` and `--name=value` pairs, allowing only the command's own flags. */
function readFlags(kind: AdminCommand["kind"], args: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const token = args[i];
    if (!token.startsWith("--")) throw new AdminUsageError(`unexpected argument "${token}"`);
    const eq = token.indexOf("=");
    const name = token.slice(2, eq === -1 ? undefined : eq);
    if (!FLAGS[kind].includes(name)) {
      throw new AdminUsageError(`unknown option --${name} for "${kind}"`);
    }
    if (flags.has(name)) throw new AdminUsageError(`--${name} is given more than once`);
    // A following flag is not a value: `--email --add x` is a missing email, not "--add".
    const value = eq === -1 ? args[++i] : token.slice(eq + 1);
    if (value === undefined || value === "" || (eq === -1 && value.startsWith("--"))) {
      throw new AdminUsageError(`--${name} needs a value`);
    }
    flags.set(name, value);
  }
  return flags;
}

/** Digits only: "1e3", "1.0", "+5" and "10_000" are refused rather than guessed at. */
function parseLimit(flag: LimitFlag, value: string): number {
  const { max } = LIMITS[flag];
  const n = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= max)) {
    throw new AdminUsageError(`--${flag} must be an integer from 1 to ${max}, got "${value}"`);
  }
  return n;
}

/** Parses the CLI arguments into a command, or throws AdminUsageError. */
export function parseAdminArgs(args: string[]): AdminCommand {
  if (args.some((a) => a === "--help" || a === "-h") || args[0] === "help") {
    throw new AdminUsageError("help requested", true);
  }
  const [kind, ...rest] = args;
  if (kind === undefined) throw new AdminUsageError("no command given");
  if (!isCommandName(kind)) throw new AdminUsageError(`unknown command "${kind}"`);
  const flags = readFlags(kind, rest);
  if (kind === "purge") {
    const raw = flags.get("after-days");
    const days = raw === undefined ? null : /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
    if (days !== null && !(days >= 1 && days <= 3650)) {
      throw new AdminUsageError(`--after-days must be an integer from 1 to 3650, got "${raw}"`);
    }
    return { kind, afterDays: days };
  }
  const rawEmail = flags.get("email");
  if (rawEmail === undefined) throw new AdminUsageError("--email is required");
  const email = normalizeEmail(rawEmail);
  if (email === null) throw new AdminUsageError(`--email "${rawEmail}" is not a valid address`);

  if (kind === "show") return { kind, email };
  if (kind === "limits") {
    const changes: LimitChanges = {};
    for (const flag of Object.keys(LIMITS) as LimitFlag[]) {
      const value = flags.get(flag);
      if (value !== undefined) changes[LIMITS[flag].column] = parseLimit(flag, value);
    }
    if (Object.keys(changes).length === 0) {
      throw new AdminUsageError(
        "limits needs at least one of --rate-per-minute, --monthly-quota, --concurrency",
      );
    }
    return { kind, email, changes };
  }
  const add = flags.get("add");
  const remove = flags.get("remove");
  if ((add === undefined) === (remove === undefined)) {
    throw new AdminUsageError("entitlements needs exactly one of --add <name> or --remove <name>");
  }
  const name = (add ?? remove)!;
  if (!isEntitlement(name)) {
    throw new AdminUsageError(
      `unknown entitlement "${name}"; known: ${ENTITLEMENTS.join(", ")}`,
    );
  }
  return { kind, email, action: add !== undefined ? "add" : "remove", entitlement: name };
}

type ContractView = ReturnType<typeof contractView>;

/** The account an admin result is about. */
export interface AccountRef {
  account_id: number;
  email: string;
}

/** Key metadata as `show` prints it; never the hash. */
export type KeyView = ReturnType<typeof keyView>;

/** What a command did, as the JSON the CLI prints. */
export type AdminResult =
  | {
    command: "limits";
    account: AccountRef;
    before: ContractView;
    after: ContractView;
    note: string;
  }
  | {
    command: "entitlements";
    account: AccountRef;
    action: "add" | "remove";
    entitlement: Entitlement;
    contract_changed: boolean;
    before: ContractView;
    after: ContractView;
    keys_updated: number[];
    note: string;
  }
  | {
    command: "show";
    account: AccountRef & { status: string; created_at: string; verified_at: string | null };
    current_contract_id: number | null;
    contracts: ContractView[];
    keys: KeyView[];
  }
  | { command: "purge"; at: string; after_days: number; removed: PurgeCounts };

const CACHE_NOTE = "running servers pick this change up within their key-cache TTL " +
  "(KEY_CACHE_TTL_MS, 5 seconds by default); no restart is needed";

/** Runs one command in one transaction and returns what it did. */
export async function runAdminCommand(
  db: Kysely<DB>,
  command: AdminCommand,
  now: Date,
  defaults: { purgeAfterDays: number } = { purgeAfterDays: 7 },
): Promise<AdminResult> {
  if (command.kind === "purge") {
    const afterDays = command.afterDays ?? defaults.purgeAfterDays;
    const outcome = await purge(db, now, { afterDays });
    if (!outcome.ran) throw new AdminError("a purge is running elsewhere right now; try again");
    return { command: "purge", at: outcome.at, after_days: afterDays, removed: outcome.removed };
  }
  return await db.transaction().execute(async (trx) => {
    const account = await trx.selectFrom("accounts")
      .select(["id", "email", "status", "created_at", "verified_at"])
      .where("email_key", "=", emailKey(command.email)).executeTakeFirst();
    if (!account) throw new AdminError(`no account with email ${command.email}`);
    const ref = { account_id: Number(account.id), email: account.email };
    if (command.kind === "show") {
      const current = await currentContract(trx, account.id, now);
      return {
        command: "show",
        account: {
          ...ref,
          status: account.status,
          created_at: account.created_at.toISOString(),
          verified_at: account.verified_at?.toISOString() ?? null,
        },
        current_contract_id: current ? Number(current.id) : null,
        contracts: (await listContracts(trx, account.id)).map((c) => contractView(c, now)),
        keys: await listKeys(trx, account.id),
      };
    }
    const before = await lockContractInForce(trx, account.id, command.email, now);
    if (command.kind === "limits") {
      const after = await trx.updateTable("contracts").set({ ...command.changes, updated_at: now })
        .where("id", "=", before.id).returningAll().executeTakeFirstOrThrow();
      const [b, a] = [contractView(before, now), contractView(after, now)];
      return { command: "limits", account: ref, before: b, after: a, note: CACHE_NOTE };
    }
    return await changeEntitlement(trx, ref, before, command, now);
  });
}

/**
 * The contract in force, locked so that two operators changing the same contract at once
 * apply one after the other instead of one overwriting the other's entitlements.
 */
async function lockContractInForce(
  trx: Transaction<DB>,
  accountId: string,
  email: string,
  now: Date,
): Promise<ContractRow> {
  const current = await currentContract(trx, accountId, now);
  const locked = current && await trx.selectFrom("contracts").selectAll()
    .where("id", "=", current.id).forUpdate().executeTakeFirst();
  if (!locked || !inForce(locked, now)) {
    throw new AdminError(
      `account ${email} has no contract in force; see \`deno task admin show --email ${email}\``,
    );
  }
  return locked;
}

async function changeEntitlement(
  trx: Transaction<DB>,
  account: AccountRef,
  before: ContractRow,
  command: Extract<AdminCommand, { kind: "entitlements" }>,
  now: Date,
): Promise<AdminResult> {
  const { action, entitlement } = command;
  const kept = before.entitlements.filter((e) => e !== entitlement);
  const wanted = [...new Set(action === "add" ? [...kept, entitlement] : kept)].sort();
  const changed = wanted.join(",") !== [...before.entitlements].sort().join(",");
  const after = changed
    ? await trx.updateTable("contracts").set({ entitlements: wanted, updated_at: now })
      .where("id", "=", before.id).returningAll().executeTakeFirstOrThrow()
    : before;
  // Removal also runs when the contract already lacked it: a key must never hold more than
  // its contract, so this repairs any key that does.
  const stripped = action === "add" ? [] : await trx.updateTable("api_keys")
    .set({ entitlements: sql<string[]>`array_remove(entitlements, ${entitlement})` })
    .where("account_id", "=", before.account_id)
    .where("contract_id", "=", before.id)
    .where(sql<boolean>`${entitlement} = ANY(entitlements)`)
    .returning("id").execute();
  const keysUpdated = stripped.map((k) => Number(k.id)).sort((a, b) => a - b);
  const note = action === "add"
    ? `existing keys are unchanged (a key keeps the entitlements it was created with); keys ` +
      `created from now on get the contract's entitlements by default; ${CACHE_NOTE}`
    : `the contract no longer carries it; stripped from ${keysUpdated.length} key(s) bound to ` +
      `that contract; ${CACHE_NOTE}`;
  return {
    command: "entitlements",
    account,
    action,
    entitlement,
    contract_changed: changed,
    before: contractView(before, now),
    after: contractView(after, now),
    keys_updated: keysUpdated,
    note,
  };
}
