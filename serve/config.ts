/**
 * Service configuration: one zod schema over the environment, parsed once at start. A bad
 * value stops start-up with every problem listed; handlers never read Deno.env.
 */
import { z } from "zod";
import { ENTITLEMENTS } from "./platform/entitlements.ts";

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Every environment variable the service reads, with its default. */
export const ConfigSchema = z.object({
  PORT: int(0, 65535).default(8000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATABASE_POOL_MAX: int(1, 500).default(10),
  DATA_DIR: z.string().min(1).default("./data"),
  // Run embedded PGlite in a worker of its own instead of on the request thread (see README).
  PGLITE_WORKER: bool.default(false),
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, "must be a size like 32MB")
    .default("8MB"),
  ARTIFACTS_DIR: z.string().min(1).default("./artifacts"),
  // Release folders tried in order when no taxonomy exists yet: the first that exists is built
  // (the shared O*NET 30.1 release where this repository sits beside ../shared/data, else the
  // sample release in fixtures/).
  BOOTSTRAP_ONET_DIR: z
    .string()
    .default("../shared/data/onet/db_30_1_text,./fixtures/onet-sample")
    .transform((v) => v.split(",").map((s) => s.trim()).filter((s) => s !== "")),
  // OEWS national estimates for that first build's occupation size prior: the first folder or
  // file that exists and holds a national_M<year>_dl.csv is used ("" builds without the prior).
  BOOTSTRAP_OEWS: z
    .string()
    .default("../shared/data/oews")
    .transform((v) => v.split(",").map((s) => s.trim()).filter((s) => s !== "")),
  BOOTSTRAP_POSTINGS: z.string().default("./fixtures/market/sample-feed.ndjson"),
  // Reviewed sample snapshots the first start builds the evidence artifact from ("" disables).
  BOOTSTRAP_EVIDENCE: z.string().default("./fixtures/workforce"),
  ARTIFACT_WATCH: bool.default(true),
  OCCUPATION_SEMANTIC: bool.default(true),
  OCCUPATION_CACHE_SIZE: int(0, 1_000_000).default(10_000),
  // What those cached bodies may hold per version, in MiB (see README, Cache).
  OCCUPATION_CACHE_MB: int(1, 4096).default(16),
  // Load and run the ranking index in a worker of its own, off the request thread (see README).
  OCCUPATION_WORKER: bool.default(true),
  // How often the server checks whether to hand the C allocator's free memory back (glibc's
  // malloc_trim, serve/memory.ts), and by how much RSS must have grown since the last time; 0 off.
  MEMORY_TRIM_MS: int(0, 60_000).default(100),
  MEMORY_TRIM_STEP_MB: int(1, 4096).default(8),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  MAX_BODY_BYTES: int(1024, 64 * 1024 * 1024).default(1024 * 1024),
  // Limit of a multipart upload (grounding file ingestion): the file limit plus the envelope.
  MAX_UPLOAD_BYTES: int(1024, 256 * 1024 * 1024).default(10 * 1024 * 1024 + 64 * 1024),
  READY_DB_TIMEOUT_MS: int(50, 60_000).default(2000),
  SHUTDOWN_GRACE_MS: int(0, 600_000).default(10_000),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  TRUSTED_PROXY_HOPS: int(0, 10).default(0),
  MANAGEMENT_TOKEN_TTL_SECONDS: int(60, 86_400).default(900),
  KEY_CACHE_TTL_MS: int(0, 60_000).default(5000),
  USAGE_FLUSH_MS: int(50, 60_000).default(1000),
  // Password hashing (argon2id) at once per process, 0 for no cap; then a short queue, and
  // past it (or past the wait) 503 with Retry-After. See serve/platform/password_gate.ts.
  ARGON2_CONCURRENCY: int(0, 1024).default(Math.max(1, navigator.hardwareConcurrency)),
  ARGON2_QUEUE: int(0, 10_000).default(32),
  ARGON2_QUEUE_WAIT_MS: int(1, 60_000).default(1000),
  // How often each instance runs the purge of lapsed registrations and expired tokens (one
  // replica at a time, at most once per interval across them); 0 turns the timer off.
  PURGE_INTERVAL_MS: int(0, 7 * 86_400_000).default(3_600_000),
  // Days past expiry before a lapsed registration or a token is deleted.
  PURGE_AFTER_DAYS: int(1, 3650).default(7),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).max(320).default("Occupation Intelligence <no-reply@localhost>"),
  MAIL_OUTBOX_DIR: z.string().min(1).default("./data/outbox"),
  MAIL_POLL_MS: int(50, 60_000).default(1000),
  BETA_DAYS: int(1, 3650).default(90),
  BETA_RATE_PER_MINUTE: int(1, 10_000_000).default(60),
  BETA_MONTHLY_QUOTA: int(1, 2_000_000_000).default(10_000),
  BETA_CONCURRENCY: int(1, 10_000).default(4),
  BETA_ENTITLEMENTS: z
    .string()
    .default("")
    .transform((v) => v.split(",").map((s) => s.trim()).filter((s) => s !== ""))
    .pipe(z.array(z.enum(ENTITLEMENTS))),
});

/** The parsed configuration. */
export type Config = z.infer<typeof ConfigSchema>;

/** A configuration that failed validation; `problems` names each variable and rule. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join("\n  - ")}`);
    this.name = "ConfigError";
  }
}

/** Parses the environment (empty strings count as unset) into a Config or throws ConfigError. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== "") cleaned[key] = value;
  }
  const result = ConfigSchema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    );
  }
  return result.data;
}
