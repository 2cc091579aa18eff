/** `deno task db:migrate`: applies pending migrations to the configured database. Wiring only. */
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./stores/postgres.ts";
import { migrate } from "./stores/migrate.ts";

try {
  const config = loadConfig(Deno.env.toObject());
  const database = await openDatabase(config);
  try {
    const applied = await migrate(database);
    console.log(
      applied.length
        ? `applied ${applied.length} migration(s) to ${database.kind}: ${applied.join(", ")}`
        : `${database.kind}: schema is up to date`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `db:migrate failed: ${String(error instanceof Error ? error.message : error)}`,
  );
  Deno.exit(1);
}
