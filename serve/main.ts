/** Service entry point: config -> stores -> app -> Deno.serve. Wiring only. */
import { hostname } from "node:os";
import { join } from "node:path";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { jsonLogger } from "./http/log.ts";
import { type Database, DatabaseLockedError, openDatabase } from "./stores/postgres.ts";
import { migrate } from "./stores/migrate.ts";
import { ArtifactRegistry } from "./stores/artifacts.ts";
import { taxonomySpecWith } from "./occupation/artifact.ts";
import { bootstrapTaxonomy } from "./occupation/bootstrap.ts";
import { recordActivation } from "./stores/activations.ts";
import { createApp } from "./app.ts";
import { marketSpec } from "./market/artifact.ts";
import { bootstrapMarket } from "./market/bootstrap.ts";
import { evidenceSpec } from "./workforce/artifact.ts";
import { bootstrapEvidence } from "./workforce/bootstrap.ts";
import { closePlatform, createPlatform, publicBaseUrl } from "./platform/mod.ts";
import { fileTransport, smtpTransport } from "./email/mailer.ts";
import { OutboxSender } from "./email/outbox.ts";
import { PurgeTimer } from "./platform/purge.ts";
import { collectGarbage, MemoryTrimmer } from "./memory.ts";

let config: Config;
try {
  config = loadConfig(Deno.env.toObject());
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  Deno.exit(1);
}
const logger = jsonLogger(config.LOG_LEVEL);
// Unique even for containers that all run as pid 1 on one host name: leases are keyed by it.
const instanceId = `${hostname()}:${Deno.pid}:${crypto.randomUUID().slice(0, 8)}`;

// The artifacts load while the database opens and migrates (start-up time): neither needs the
// other until an activation is recorded, which waits for the migrated database. A first run's
// builds (bootstrap) come first, as the artifacts they publish are what loads.
await bootstrapTaxonomy(
  config.ARTIFACTS_DIR,
  config.BOOTSTRAP_ONET_DIR,
  logger,
  config.BOOTSTRAP_OEWS,
);
await bootstrapMarket(config.ARTIFACTS_DIR, config.BOOTSTRAP_POSTINGS, logger);
await bootstrapEvidence(config.ARTIFACTS_DIR, config.BOOTSTRAP_EVIDENCE, logger);
const migrated = Promise.withResolvers<Database>();
const artifacts = new ArtifactRegistry(
  config.ARTIFACTS_DIR,
  [taxonomySpecWith({ worker: config.OCCUPATION_WORKER }), marketSpec, evidenceSpec],
  logger,
  async (artifact) =>
    recordActivation((await migrated.promise).db, {
      artifact: artifact.name,
      version: artifact.version,
      contentHash: artifact.manifest.content_hash,
      instanceId,
    }),
);
// On a first run the embedded database is created (initdb, a transient peak of about 750 MB):
// loading the artifacts beside it left the server about 300 MB larger for good, so they wait.
const firstRun = !config.DATABASE_URL &&
  !(await Deno.stat(join(config.DATA_DIR, "pglite")).then(() => true, () => false));
// Each artifact's load leaves its garbage (snapshot bytes, the parts' scratch): collected after each,
// before the next loads and before anything is served.
let collectedMs: number | null = null;
const collect = () => {
  const ms = collectGarbage();
  if (ms !== null) collectedMs = (collectedMs ?? 0) + ms;
};
const loading = firstRun
  ? migrated.promise.then(() => artifacts.start(collect))
  : artifacts.start(collect);

let database: Database;
try {
  database = await openDatabase(
    config,
    (error) => logger.warn("idle database connection lost", { error: error.message }),
  );
} catch (error) {
  logger.error("database could not be opened", {
    error: error instanceof DatabaseLockedError ? error.message : String(error),
  });
  Deno.exit(1);
}
const applied = await migrate(database);
logger.info("database ready", { mode: database.kind, migrations_applied: applied });
migrated.resolve(database);
await loading;
if (config.ARTIFACT_WATCH) artifacts.watch();
if (collectedMs !== null) logger.info("heap collected", { ms: Math.round(collectedMs) });

if (database.kind === "postgres" && !config.AUTH_SECRET) {
  logger.warn("AUTH_SECRET is not set: the signing secret lives in the database itself", {
    advice: "set AUTH_SECRET (32+ characters) from a secret store so that a copy of the " +
      "database cannot forge management tokens or read undelivered emails",
  });
}
const platform = await createPlatform({ db: database.db, config, logger, instanceId });
const transport = config.SMTP_URL
  ? smtpTransport(config.SMTP_URL)
  : fileTransport(config.MAIL_OUTBOX_DIR, logger);
const outbox = new OutboxSender({
  db: database.db,
  transport,
  outboxKey: platform.keys.outboxKey,
  from: config.MAIL_FROM,
  logger,
  pollMs: config.MAIL_POLL_MS,
});
outbox.start();
logger.info("email ready", {
  transport: transport.name,
  ...(transport.name === "file" ? { outbox_dir: config.MAIL_OUTBOX_DIR } : {}),
});

const purgeTimer = new PurgeTimer(database.db, logger, {
  intervalMs: config.PURGE_INTERVAL_MS,
  afterDays: config.PURGE_AFTER_DAYS,
});
purgeTimer.start();

const mib = (bytes: number) => Math.round(bytes / 1048576);
const trimmer = new MemoryTrimmer(
  config.MEMORY_TRIM_MS,
  config.MEMORY_TRIM_STEP_MB * 1048576,
  undefined,
  ({ before, after, ms }) =>
    logger.debug("memory trimmed", {
      rss_mib_before: mib(before),
      rss_mib_after: mib(after),
      ms: Math.round(ms * 10) / 10,
    }),
  () => artifacts.loading,
);
if (config.MEMORY_TRIM_MS > 0) {
  logger.info("memory trim", {
    on: trimmer.start(),
    interval_ms: config.MEMORY_TRIM_MS,
    step_mb: config.MEMORY_TRIM_STEP_MB,
  });
}

const app = createApp({ config, database, artifacts, logger, platform });
const server = Deno.serve(
  {
    port: config.PORT,
    hostname: config.HOST,
    onListen: ({ hostname, port }) => {
      // With PORT=0 the real port is known only now; email links must carry it.
      if (!config.PUBLIC_BASE_URL) {
        platform.settings.publicBaseUrl = publicBaseUrl({ ...config, HOST: hostname, PORT: port });
      }
      logger.info("listening", { url: `http://${hostname}:${port}`, instance: instanceId });
    },
  },
  app.fetch,
);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info("shutting down", { signal, grace_ms: config.SHUTDOWN_GRACE_MS });
  const grace = new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_GRACE_MS));
  await Promise.race([server.shutdown(), grace]);
  await closePlatform(platform); // writes buffered usage records
  await purgeTimer.stop();
  trimmer.stop();
  if (trimmer.stats.trims > 0) {
    logger.info("memory trimmed", { trims: trimmer.stats.trims, ms: Math.round(trimmer.stats.ms) });
  }
  await outbox.stop();
  await transport.close();
  await artifacts.close();
  await database.close();
  logger.info("stopped");
  Deno.exit(0);
}
Deno.addSignalListener("SIGTERM", () => void shutdown("SIGTERM"));
Deno.addSignalListener("SIGINT", () => void shutdown("SIGINT"));
