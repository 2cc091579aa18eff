/**
 * `deno task admin`: operators change one account's contract from a shell, never over HTTP.
 * Wiring only: arguments -> config -> database -> migrations -> command -> JSON on stdout.
 * Exit codes: 0 done, 1 refused or failed, 2 embedded database held by a running server,
 * 64 usage error (sysexits EX_USAGE).
 */
import { ConfigError, loadConfig } from "./config.ts";
import { type Database, DatabaseLockedError, openDatabase } from "./stores/postgres.ts";
import { migrate } from "./stores/migrate.ts";
import { AdminError, AdminUsageError, parseAdminArgs, runAdminCommand } from "./platform/admin.ts";

let exitCode = 0;
let database: Database | undefined;
try {
  // Arguments first: a typo must not need (or wait for) the database.
  const command = parseAdminArgs(Deno.args);
  const config = loadConfig(Deno.env.toObject());
  database = await openDatabase(config);
  await migrate(database);
  const result = await runAdminCommand(database.db, command, new Date(), {
    purgeAfterDays: config.PURGE_AFTER_DAYS,
  });
  console.log(JSON.stringify(result, null, 2));
} catch (error) {
  if (error instanceof AdminUsageError && error.helpRequested) {
    console.log(error.usage);
  } else if (error instanceof AdminUsageError) {
    console.error(`admin: ${error.message}\n\n${error.usage}`);
    exitCode = 64;
  } else if (error instanceof DatabaseLockedError) {
    console.error(`admin: ${error.message}`);
    exitCode = 2;
  } else if (error instanceof AdminError || error instanceof ConfigError) {
    console.error(`admin: ${error.message}`);
    exitCode = 1;
  } else {
    console.error(`admin: failed: ${error instanceof Error ? error.message : String(error)}`);
    exitCode = 1;
  }
} finally {
  // A clean close lets embedded PGlite flush to disk; Deno.exit alone would skip it.
  await database?.close().catch(() => {});
}
Deno.exit(exitCode);
