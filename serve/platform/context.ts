/** What the platform feature is built from: the database, keys, clock and settings. */
import type { Kysely } from "kysely";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/router.ts";
import type { DB } from "../stores/schema.ts";
import type { Logger } from "../http/log.ts";
import type { ServiceKeys } from "./secrets.ts";
import type { BetaPlan } from "./contracts.ts";
import type { KeyStore } from "./auth.ts";
import type { LimitGate } from "../http/limits.ts";
import type { UsageMeter } from "../http/metering.ts";
import type { BackgroundTasks } from "./tasks.ts";
import type { PasswordGate } from "./password_gate.ts";

/** Settings taken from the configuration. */
export interface PlatformSettings {
  /** Base of the links in emails. */
  publicBaseUrl: string;
  managementTokenTtlSeconds: number;
  beta: BetaPlan;
  /** How many proxies of ours append to X-Forwarded-For (0: use the peer address). */
  trustedProxyHops: number;
}

/** Dependencies of the platform routes and the runtime middleware. */
export interface PlatformContext {
  db: Kysely<DB>;
  keys: ServiceKeys;
  clock: () => Date;
  logger: Logger;
  settings: PlatformSettings;
  keyStore: KeyStore;
  limits: LimitGate;
  meter: UsageMeter;
  tasks: BackgroundTasks;
  /** The process-wide cap on concurrent password hashing. */
  passwordGate: PasswordGate;
  /** Idempotency-Key handling for creating POSTs; mount it after the route's authentication. */
  idempotent: MiddlewareHandler<AppEnv>;
}
