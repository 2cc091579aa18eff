/**
 * The operator CLI: argument parsing, each command against a real database (PGlite, or the
 * TEST_DATABASE_URL server), and the CLI process itself, including its refusal to touch an
 * embedded database a running server holds.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Kysely } from "kysely";
import {
  ADMIN_USAGE,
  type AdminCommand,
  AdminError,
  type AdminResult,
  AdminUsageError,
  parseAdminArgs,
  runAdminCommand,
} from "../serve/platform/admin.ts";
import type { DB } from "../serve/stores/schema.ts";
import { openPglite } from "../serve/stores/postgres.ts";
import { migrate } from "../serve/stores/migrate.ts";
import { testDatabase } from "./helpers.ts";
import { withTempDir } from "./fs.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const NOW = new Date("2026-12-01T12:00:00Z");
const DAY = 86_400_000;
const E = "ops@example.com";

Deno.test("parseAdminArgs: accepts each command and normalises the email", () => {
  assert.deepEqual(
    parseAdminArgs([
      "limits",
      "--email",
      " Ops@Example.COM ",
      "--rate-per-minute",
      "120",
      "--monthly-quota=50000",
      "--concurrency",
      "8",
    ]),
    {
      kind: "limits",
      email: "Ops@example.com",
      changes: { rate_per_minute: 120, monthly_quota: 50000, concurrency: 8 },
    },
  );
  assert.deepEqual(parseAdminArgs(["limits", "--concurrency", "1", "--email", E]), {
    kind: "limits",
    email: E,
    changes: { concurrency: 1 },
  });
  assert.deepEqual(
    parseAdminArgs([
      "limits",
      "--email",
      E,
      "--rate-per-minute",
      "10000000",
      "--monthly-quota",
      "2000000000",
      "--concurrency",
      "10000",
    ]),
    {
      kind: "limits",
      email: E,
      changes: { rate_per_minute: 10_000_000, monthly_quota: 2_000_000_000, concurrency: 10_000 },
    },
  );
  assert.deepEqual(parseAdminArgs(["entitlements", "--email", E, "--add", "customer_grounding"]), {
    kind: "entitlements",
    email: E,
    action: "add",
    entitlement: "customer_grounding",
  });
  assert.deepEqual(
    parseAdminArgs(["entitlements", "--remove=workforce_evidence_packs", "--email", E]),
    { kind: "entitlements", email: E, action: "remove", entitlement: "workforce_evidence_packs" },
  );
  assert.deepEqual(parseAdminArgs(["show", "--email", E]), { kind: "show", email: E });
});

Deno.test("parseAdminArgs: each kind of bad input is a usage error that says what is wrong", () => {
  const limits = (flag: string, value: string) => ["limits", "--email", E, flag, value];
  const cases: [string[], RegExp][] = [
    [[], /no command given/],
    [["frobnicate", "--email", E], /unknown command "frobnicate"/],
    [["show"], /--email is required/],
    [["limits", "--rate-per-minute", "5"], /--email is required/],
    [["show", "--email"], /--email needs a value/],
    [["show", "--email", "--add", "x"], /--email needs a value/],
    [["show", "--email", "not-an-address"], /--email "not-an-address" is not a valid address/],
    [["show", "--email", E, "--email", E], /--email is given more than once/],
    [["show", "--email", E, "extra"], /unexpected argument "extra"/],
    [["show", "--email", E, "--add", "customer_grounding"], /unknown option --add for "show"/],
    [["limits", "--email", E, "--add", "customer_grounding"], /unknown option --add for "limits"/],
    [["limits", "--email", E], /at least one of --rate-per-minute, --monthly-quota/],
    [limits("--rate-per-minute", "1.5"), /--rate-per-minute must be an integer from 1 to 10000000/],
    [limits("--rate-per-minute", "abc"), /--rate-per-minute must be an integer/],
    [limits("--rate-per-minute", "1e3"), /--rate-per-minute must be an integer/],
    [limits("--rate-per-minute", "-5"), /--rate-per-minute must be an integer.*got "-5"/],
    [limits("--rate-per-minute", "0"), /--rate-per-minute must be an integer/],
    [limits("--rate-per-minute", "10000001"), /--rate-per-minute must be an integer/],
    [
      limits("--monthly-quota", "2000000001"),
      /--monthly-quota must be an integer from 1 to 2000000000/,
    ],
    [limits("--monthly-quota", "99999999999999999999"), /--monthly-quota must be an integer/],
    [limits("--concurrency", "10001"), /--concurrency must be an integer from 1 to 10000/],
    [limits("--concurrency", "0"), /--concurrency must be an integer/],
    [["entitlements", "--email", E], /exactly one of --add <name> or --remove <name>/],
    [
      [
        "entitlements",
        "--email",
        E,
        "--add",
        "customer_grounding",
        "--remove",
        "customer_grounding",
      ],
      /exactly one of --add/,
    ],
    [
      ["entitlements", "--email", E, "--add", "everything"],
      /unknown entitlement "everything"; known: customer_grounding, workforce_evidence_packs/,
    ],
  ];
  for (const [args, message] of cases) {
    assert.throws(() => parseAdminArgs(args), (error: unknown) => {
      assert.ok(error instanceof AdminUsageError, `${args.join(" ")}: ${error}`);
      assert.match(error.message, message, args.join(" "));
      assert.equal(error.helpRequested, false);
      assert.equal(error.usage, ADMIN_USAGE);
      return true;
    });
  }
  for (const args of [["--help"], ["help"], ["limits", "-h"]]) {
    assert.throws(
      () => parseAdminArgs(args),
      (e: unknown) => e instanceof AdminUsageError && e.helpRequested,
    );
  }
  assert.match(ADMIN_USAGE, /deno task admin limits --email <e> \[--rate-per-minute N\]/);
});

interface Seeded {
  accountId: string;
  otherAccountId: string;
  currentId: string;
  oldId: string;
  keyBoth: string;
  keyGrounding: string;
  keyOnOld: string;
  keyOther: string;
}

/** An account with an expired and a current contract and keys on each, plus a second account. */
async function seed(db: Kysely<DB>, now = NOW): Promise<Seeded> {
  const created = new Date(now.getTime() - 100 * DAY);
  const account = (email: string) =>
    db.insertInto("accounts").values({
      email,
      email_key: email.toLowerCase(),
      password_hash: "$argon2id$secret-password-hash",
      full_name: "Ops Person",
      company_name: "Example Ltd",
      status: "verified",
      verified_at: created,
      password_changed_at: null,
      created_at: created,
    }).returning("id").executeTakeFirstOrThrow().then((r) => r.id);
  const accountId = await account(E);
  const otherAccountId = await account("other@example.com");
  const contract = (owner: string, startsAt: Date, endsAt: Date, entitlements: string[]) =>
    db.insertInto("contracts").values({
      account_id: owner,
      plan: "beta",
      status: "trial",
      starts_at: startsAt,
      ends_at: endsAt,
      rate_per_minute: 60,
      monthly_quota: 10_000,
      concurrency: 4,
      entitlements,
      created_at: startsAt,
      updated_at: startsAt,
    }).returning("id").executeTakeFirstOrThrow().then((r) => r.id);
  const both = ["workforce_evidence_packs", "customer_grounding"];
  const oldId = await contract(accountId, created, new Date(now.getTime() - 10 * DAY), both);
  const currentId = await contract(
    accountId,
    new Date(now.getTime() - 10 * DAY),
    new Date(now.getTime() + 80 * DAY),
    both,
  );
  const otherContract = await contract(
    otherAccountId,
    created,
    new Date(now.getTime() + DAY),
    both,
  );
  let n = 0;
  const key = (owner: string, contractId: string, entitlements: string[]) =>
    db.insertInto("api_keys").values({
      account_id: owner,
      contract_id: contractId,
      name: `key-${++n}`,
      key_hash: `hash-secret-${n}`,
      prefix: `oik_abc${n}`,
      last_four: `000${n}`,
      entitlements,
      created_at: new Date(now.getTime() - (10 - n) * DAY),
      last_used_at: null,
      revoked_at: null,
    }).returning("id").executeTakeFirstOrThrow().then((r) => r.id);
  return {
    accountId,
    otherAccountId,
    currentId,
    oldId,
    keyOnOld: await key(accountId, oldId, both),
    keyBoth: await key(accountId, currentId, both),
    keyGrounding: await key(accountId, currentId, ["customer_grounding"]),
    keyOther: await key(otherAccountId, otherContract, both),
  };
}

/** Runs fn over a migrated, seeded test database. */
async function withSeeded(fn: (db: Kysely<DB>, s: Seeded) => Promise<void>) {
  const { database, cleanup } = await testDatabase();
  try {
    await migrate(database);
    await fn(database.db, await seed(database.db));
  } finally {
    await cleanup();
  }
}

function run(db: Kysely<DB>, command: AdminCommand, now = NOW) {
  return runAdminCommand(db, command, now);
}

async function contractRow(db: Kysely<DB>, id: string) {
  return await db.selectFrom("contracts").selectAll().where("id", "=", id)
    .executeTakeFirstOrThrow();
}

async function keyEntitlements(db: Kysely<DB>, id: string) {
  const row = await db.selectFrom("api_keys").select("entitlements").where("id", "=", id)
    .executeTakeFirstOrThrow();
  return [...row.entitlements].sort();
}

Deno.test("limits: changes only the given limits of the contract in force", async () => {
  await withSeeded(async (db, s) => {
    const result = await run(
      db,
      parseAdminArgs(["limits", "--email", E, "--rate-per-minute", "600", "--concurrency", "9"]),
    );
    assert.equal(result.command, "limits");
    if (result.command !== "limits") return;
    assert.equal(result.account.account_id, Number(s.accountId));
    assert.equal(result.before.contract_id, Number(s.currentId));
    assert.equal(result.before.rate_per_minute, 60);
    assert.equal(result.after.rate_per_minute, 600);
    assert.equal(result.after.concurrency_limit, 9);
    assert.equal(result.after.monthly_quota, 10_000);
    assert.match(result.note, /key-cache TTL/);
    const row = await contractRow(db, s.currentId);
    assert.deepEqual([row.rate_per_minute, row.monthly_quota, row.concurrency], [600, 10_000, 9]);
    assert.equal(row.updated_at.getTime(), NOW.getTime());
    const old = await contractRow(db, s.oldId);
    assert.deepEqual(
      [old.rate_per_minute, old.concurrency],
      [60, 4],
      "an expired contract is left alone",
    );
    assert.doesNotThrow(() => JSON.stringify(result));
  });
});

Deno.test("entitlements --remove: strips it from the contract and from that contract's keys only", async () => {
  await withSeeded(async (db, s) => {
    const result = await run(
      db,
      parseAdminArgs(["entitlements", "--email", E, "--remove", "customer_grounding"]),
    );
    assert.equal(result.command, "entitlements");
    if (result.command !== "entitlements") return;
    assert.equal(result.contract_changed, true);
    assert.deepEqual(result.before.entitlements, [
      "customer_grounding",
      "workforce_evidence_packs",
    ]);
    assert.deepEqual(result.after.entitlements, ["workforce_evidence_packs"]);
    assert.deepEqual(
      result.keys_updated,
      [Number(s.keyBoth), Number(s.keyGrounding)].sort((a, b) => a - b),
    );
    assert.match(result.note, /stripped from 2 key\(s\)/);
    assert.deepEqual((await contractRow(db, s.currentId)).entitlements, [
      "workforce_evidence_packs",
    ]);
    assert.equal((await contractRow(db, s.currentId)).updated_at.getTime(), NOW.getTime());
    assert.deepEqual(await keyEntitlements(db, s.keyBoth), ["workforce_evidence_packs"]);
    assert.deepEqual(await keyEntitlements(db, s.keyGrounding), []);
    assert.deepEqual(await keyEntitlements(db, s.keyOnOld), [
      "customer_grounding",
      "workforce_evidence_packs",
    ]);
    assert.deepEqual(await keyEntitlements(db, s.keyOther), [
      "customer_grounding",
      "workforce_evidence_packs",
    ]);
    assert.equal((await contractRow(db, s.oldId)).entitlements.length, 2);

    // Removing again changes nothing but still reports cleanly.
    const again = await run(
      db,
      parseAdminArgs(["entitlements", "--email", E, "--remove", "customer_grounding"]),
    );
    assert.ok(again.command === "entitlements" && !again.contract_changed);
    assert.deepEqual(again.keys_updated, []);
  });
});

Deno.test("entitlements --add: sorted, idempotent, and existing keys are untouched", async () => {
  await withSeeded(async (db, s) => {
    await db.updateTable("contracts").set({ entitlements: ["workforce_evidence_packs"] })
      .where("id", "=", s.currentId).execute();
    const result = await run(
      db,
      parseAdminArgs(["entitlements", "--email", E, "--add", "customer_grounding"]),
    );
    assert.ok(result.command === "entitlements");
    assert.equal(result.contract_changed, true);
    assert.deepEqual(result.after.entitlements, ["customer_grounding", "workforce_evidence_packs"]);
    assert.deepEqual(result.keys_updated, []);
    assert.match(result.note, /existing keys are unchanged/);
    assert.deepEqual((await contractRow(db, s.currentId)).entitlements, [
      "customer_grounding",
      "workforce_evidence_packs",
    ]);
    assert.deepEqual(await keyEntitlements(db, s.keyGrounding), ["customer_grounding"]);

    const later = new Date(NOW.getTime() + 1000);
    const again = await run(
      db,
      parseAdminArgs(["entitlements", "--email", E, "--add", "customer_grounding"]),
      later,
    );
    assert.ok(again.command === "entitlements" && !again.contract_changed);
    const row = await contractRow(db, s.currentId);
    assert.deepEqual(row.entitlements, ["customer_grounding", "workforce_evidence_packs"]);
    assert.equal(row.updated_at.getTime(), NOW.getTime(), "a no-op leaves updated_at alone");
  });
});

Deno.test("show: the account, every contract and key metadata, never a hash", async () => {
  await withSeeded(async (db, s) => {
    const result: AdminResult = await run(
      db,
      parseAdminArgs(["show", "--email", "ops@EXAMPLE.com"]),
    );
    assert.ok(result.command === "show");
    assert.equal(result.account.account_id, Number(s.accountId));
    assert.equal(result.account.email, E);
    assert.equal(result.account.status, "verified");
    assert.equal(result.current_contract_id, Number(s.currentId));
    assert.deepEqual(result.contracts.map((c) => [c.contract_id, c.status]), [
      [Number(s.currentId), "trial"],
      [Number(s.oldId), "expired"],
    ]);
    assert.deepEqual(
      result.keys.map((k) => k.key_id),
      [s.keyGrounding, s.keyBoth, s.keyOnOld].map(Number),
    );
    const key = result.keys.find((k) => k.key_id === Number(s.keyBoth))!;
    assert.deepEqual(Object.keys(key).sort(), [
      "contract_id",
      "created_at",
      "entitlements",
      "key_id",
      "last_four",
      "last_used_at",
      "name",
      "prefix",
      "revoked_at",
      "status",
    ]);
    assert.equal(key.contract_id, Number(s.currentId));
    assert.deepEqual(key.entitlements, ["customer_grounding", "workforce_evidence_packs"]);
    const json = JSON.stringify(result);
    assert.doesNotMatch(json, /secret|password_hash|key_hash/);
  });
});

Deno.test("unknown email and an account without a contract in force are clear errors", async () => {
  await withSeeded(async (db, s) => {
    for (
      const args of [["show", "--email", "nobody@example.com"], [
        "limits",
        "--email",
        "nobody@example.com",
        "--concurrency",
        "2",
      ]]
    ) {
      await assert.rejects(
        run(db, parseAdminArgs(args)),
        (e: unknown) =>
          e instanceof AdminError && /no account with email nobody@example\.com/.test(e.message),
      );
    }
    const afterEnd = new Date(NOW.getTime() + 81 * DAY);
    for (
      const args of [
        ["limits", "--email", E, "--concurrency", "2"],
        ["entitlements", "--email", E, "--remove", "customer_grounding"],
      ]
    ) {
      await assert.rejects(
        run(db, parseAdminArgs(args), afterEnd),
        (e: unknown) =>
          e instanceof AdminError &&
          /account ops@example\.com has no contract in force/.test(e.message),
      );
    }
    assert.equal((await contractRow(db, s.currentId)).concurrency, 4);
    assert.deepEqual(await keyEntitlements(db, s.keyBoth), [
      "customer_grounding",
      "workforce_evidence_packs",
    ]);
    const shown = await run(db, parseAdminArgs(["show", "--email", E]), afterEnd);
    assert.ok(shown.command === "show" && shown.current_contract_id === null);
  });
});

/** Runs the real CLI with an embedded database under dataDir. */
async function cli(dataDir: string, ...args: string[]) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "serve/admin.ts", ...args],
    env: { DATA_DIR: dataDir, DATABASE_URL: "" },
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

Deno.test("CLI: refuses with exit 2 while a server holds the embedded data directory", async () => {
  await withTempDir("test-admin-locked-", async (dir) => {
    const server = await openPglite(dir);
    try {
      const { code, stderr } = await cli(dir, "show", "--email", "a@example.com");
      assert.equal(code, 2, stderr);
      assert.match(stderr, /^admin: .*in use by another process/);
    } finally {
      await server.close();
    }
  });
});

Deno.test("CLI: end to end on an embedded database, usage errors, unknown email and show", async () => {
  await withTempDir("test-admin-cli-", async (dir) => {
    const usage = await cli(dir, "limits", "--email", E);
    assert.equal(usage.code, 64);
    assert.match(usage.stderr, /^admin: limits needs at least one of/);
    assert.ok(usage.stderr.includes(ADMIN_USAGE));

    const unknown = await cli(dir, "show", "--email", "nobody@example.com");
    assert.equal(unknown.code, 1, unknown.stderr);
    assert.equal(unknown.stderr.trim(), "admin: no account with email nobody@example.com");
    assert.equal(unknown.stdout, "");

    const database = await openPglite(dir); // the CLI closed it, so the lock is free again
    try {
      await seed(database.db, new Date()); // the CLI runs at the real time
    } finally {
      await database.close();
    }
    const limits = await cli(dir, "limits", "--email", E, "--monthly-quota", "20000");
    assert.equal(limits.code, 0, limits.stderr);
    assert.equal(JSON.parse(limits.stdout).after.monthly_quota, 20000);
    const shown = await cli(dir, "show", "--email", E);
    assert.equal(shown.code, 0, shown.stderr);
    const body = JSON.parse(shown.stdout);
    assert.equal(body.account.email, E);
    assert.equal(body.contracts[0].monthly_quota, 20000, "the change was committed");
  });
});
