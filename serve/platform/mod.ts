/**
 * The developer platform feature: account, key, usage, contract and feedback routes, and the
 * runtime-key middleware every runtime feature mounts.
 */
import type { Kysely } from "kysely";
import type { MiddlewareHandler } from "hono";
import type { DB } from "../stores/schema.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../http/log.ts";
import { type AppEnv, createRouter } from "../http/router.ts";
import { KeyStore, runtimeAuth } from "./auth.ts";
import { LimitGate } from "../http/limits.ts";
import { UsageMeter } from "../http/metering.ts";
import { deriveKeys, loadRootSecret, openText, sealText } from "./secrets.ts";
import { idempotent } from "../http/idempotency.ts";
import { BackgroundTasks } from "./tasks.ts";
import { PasswordGate } from "./password_gate.ts";
import type { PlatformContext } from "./context.ts";
import { accountRoutes } from "./routes_account.ts";
import { managementRoutes } from "./routes_manage.ts";

export type { PlatformContext } from "./context.ts";

/** The configuration the platform reads. */
export type PlatformConfig = Pick<
  Config,
  | "AUTH_SECRET"
  | "TRUSTED_PROXY_HOPS"
  | "MANAGEMENT_TOKEN_TTL_SECONDS"
  | "KEY_CACHE_TTL_MS"
  | "USAGE_FLUSH_MS"
  | "ARGON2_CONCURRENCY"
  | "ARGON2_QUEUE"
  | "ARGON2_QUEUE_WAIT_MS"
  | "PUBLIC_BASE_URL"
  | "HOST"
  | "PORT"
  | "BETA_DAYS"
  | "BETA_RATE_PER_MINUTE"
  | "BETA_MONTHLY_QUOTA"
  | "BETA_CONCURRENCY"
  | "BETA_ENTITLEMENTS"
>;

/** The base URL of links in emails: PUBLIC_BASE_URL, else the server's own address. */
export function publicBaseUrl(config: Pick<Config, "PUBLIC_BASE_URL" | "HOST" | "PORT">): string {
  if (config.PUBLIC_BASE_URL) return config.PUBLIC_BASE_URL;
  const host = ["0.0.0.0", "::", "[::]"].includes(config.HOST) ? "localhost" : config.HOST;
  return `http://${
    host.includes(":") && !host.startsWith("[") ? `[${host}]` : host
  }:${config.PORT}`;
}

/** Builds the platform's services: keys, key cache, limit gate and usage meter (started). */
export async function createPlatform(options: {
  db: Kysely<DB>;
  config: PlatformConfig;
  logger: Logger;
  instanceId: string;
  clock?: () => Date;
}): Promise<PlatformContext> {
  const { db, config, logger } = options;
  const clock = options.clock ?? (() => new Date());
  const keys = await deriveKeys(await loadRootSecret(db, config.AUTH_SECRET));
  const meter = new UsageMeter(db, logger, config.USAGE_FLUSH_MS);
  meter.start();
  return {
    db,
    keys,
    clock,
    logger,
    settings: {
      publicBaseUrl: publicBaseUrl(config),
      managementTokenTtlSeconds: config.MANAGEMENT_TOKEN_TTL_SECONDS,
      trustedProxyHops: config.TRUSTED_PROXY_HOPS,
      beta: {
        days: config.BETA_DAYS,
        ratePerMinute: config.BETA_RATE_PER_MINUTE,
        monthlyQuota: config.BETA_MONTHLY_QUOTA,
        concurrency: config.BETA_CONCURRENCY,
        entitlements: config.BETA_ENTITLEMENTS,
      },
    },
    keyStore: new KeyStore(db, config.KEY_CACHE_TTL_MS, clock),
    limits: new LimitGate(db, options.instanceId, clock),
    meter,
    tasks: new BackgroundTasks(logger),
    // Kept answers are sealed like outbox bodies, with their own derived key.
    idempotent: idempotent(db, {
      seal: (text) => sealText(keys.idempotencyKey, text),
      open: (sealed) => openText(keys.idempotencyKey, sealed),
    }, clock),
    passwordGate: new PasswordGate(
      config.ARGON2_CONCURRENCY,
      config.ARGON2_QUEUE,
      config.ARGON2_QUEUE_WAIT_MS,
    ),
  };
}

/** Finishes background work, writes pending usage records and hands back concurrency slots. */
export async function closePlatform(ctx: PlatformContext): Promise<void> {
  await ctx.tasks.close();
  await ctx.meter.close();
  await ctx.limits.close();
}

/** The middleware runtime routes mount: key, contract, limits and metering. */
export function runtimeMiddleware(ctx: PlatformContext): MiddlewareHandler<AppEnv> {
  return runtimeAuth({
    keys: ctx.keyStore,
    limits: ctx.limits,
    meter: ctx.meter,
    jwtSecret: ctx.keys.jwtSecret,
    clock: ctx.clock,
  });
}

/** Every platform route. */
export function platformRoutes(ctx: PlatformContext) {
  const router = createRouter();
  router.route("/", accountRoutes(ctx));
  router.route("/", managementRoutes(ctx));
  return router;
}
