/**
 * Console sessions: the console's own credential. The browser holds a random 256-bit id in an
 * HttpOnly, SameSite=Strict cookie (Secure, and named with the __Host- prefix, when the console
 * is served over https); the database holds its SHA-256 with the account's session epoch at
 * sign-in. A session ends:
 * - after SESSION_IDLE_MS (30 minutes) without a console request (last_seen_at is written at
 *   most once a minute, so the idle end is within a minute of that);
 * - at SESSION_LIFETIME_MS (12 hours) after sign-in, however busy;
 * - at log-out (the row is deleted);
 * - when the account's password is reset (every row of the account is deleted, and the epoch
 *   moves on, which ends a session on any replica even before then).
 * The cookie opens console pages only: API routes read bearer credentials, never cookies.
 *
 * Validated sessions are kept in memory for SESSION_CACHE_MS (2 s) per server instance, so a
 * page view does not read the database each time. The idle and lifetime ends are still checked
 * on every request against the kept times, and this instance drops its kept copy at once when
 * it ends a session (log-out, expiry), resets the account's password (through the console or
 * the API: every session of the account) or writes the session's flash. What that means:
 * - on the embedded database (the default) only one server process can open the data
 *   directory (PGlite's lock file), so there is one instance and the above is exact;
 * - replicas sharing a Postgres server do not hear of each other's writes: a session that
 *   another instance ended (log-out, password reset) is still accepted here for at most
 *   SESSION_CACHE_MS after this instance last read it, then refused. A key's raw value shown
 *   once after creation is read from the database whichever instance created it.
 */
import type { Kysely } from "kysely";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { ConsoleSessionsTable, DB } from "../stores/schema.ts";
import type { PlatformContext } from "../platform/mod.ts";
import { createHash } from "node:crypto";
import { base64url } from "../platform/secrets.ts";
import { onPasswordReset } from "../platform/accounts.ts";
import { TtlCache } from "./cache.ts";

/** Idle expiry: a session unused this long has ended. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** Absolute lifetime: a session ends this long after sign-in, however busy. */
export const SESSION_LIFETIME_MS = 12 * 3_600_000;
/** last_seen_at is refreshed at most this often (saves a write on most page views). */
const TOUCH_EVERY_MS = 60_000;
/** A validated session is kept in memory this long by the instance that read it. */
export const SESSION_CACHE_MS = 2_000;
const ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** What the database keeps of a cookie's id: its SHA-256, in hex. */
function idHashOf(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

/** A live session with the account it belongs to. */
export interface ConsoleSession {
  idHash: string;
  accountId: string;
  email: string;
  fullName: string;
  createdAt: Date;
  expiresAt: Date;
  flash: string | null;
}

/** Whether the request reached us over https (directly or through a trusted proxy). */
export function isHttps(c: Context, trustedProxyHops: number, publicBaseUrl: string): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  if (trustedProxyHops > 0) {
    const proto = (c.req.header("x-forwarded-proto") ?? "").split(",").at(-1)?.trim();
    if (proto === "https") return true;
  }
  return publicBaseUrl.startsWith("https://");
}

/** The cookie names: `__Host-` prefixed (which browsers bind to https and one host) on https. */
export function cookieNames(secure: boolean): { session: string; pre: string } {
  return secure
    ? { session: "__Host-oi_console", pre: "__Host-oi_console_pre" }
    : { session: "oi_console", pre: "oi_console_pre" };
}

/** Sets an HttpOnly, SameSite=Strict cookie for the whole host (Secure on https). */
export function setConsoleCookie(
  c: Context,
  name: string,
  value: string,
  secure: boolean,
  maxAgeSeconds?: number,
): void {
  setCookie(c, name, value, {
    path: "/",
    httpOnly: true,
    sameSite: "Strict",
    secure,
    ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds } : {}),
  });
}

/** Reads a cookie's value when it has the shape of one of ours. */
export function readCookie(c: Context, name: string): string | null {
  const value = getCookie(c, name);
  return value && ID_SHAPE.test(value) ? value : null;
}

/** A new random id for a cookie (256 bits, base64url). */
export function newCookieId(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** Starts a session for an account that just signed in; returns the cookie's value. */
export async function createSession(
  db: Kysely<DB>,
  account: { id: string; session_epoch: number },
  now: Date,
): Promise<string> {
  const id = newCookieId();
  // Housekeeping: the account's sessions that have already ended go now.
  await db.deleteFrom("console_sessions").where("account_id", "=", account.id)
    .where((eb) =>
      eb.or([
        eb("expires_at", "<=", now),
        eb("last_seen_at", "<=", new Date(now.getTime() - SESSION_IDLE_MS)),
      ])
    ).execute();
  await db.insertInto("console_sessions").values({
    id_hash: idHashOf(id),
    account_id: account.id,
    session_epoch: account.session_epoch,
    created_at: now,
    last_seen_at: now,
    expires_at: new Date(now.getTime() + SESSION_LIFETIME_MS),
  }).execute();
  return id;
}

/** A console_sessions row joined with its account, as read and kept. */
interface SessionRow extends Omit<ConsoleSessionsTable, "id_hash"> {
  email: string;
  full_name: string;
  status: string;
  account_epoch: number;
}

const caches = new WeakMap<PlatformContext, TtlCache<string, SessionRow | null>>();

/** This instance's kept sessions, by id hash. */
function cacheOf(ctx: PlatformContext): TtlCache<string, SessionRow | null> {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, cache = new TtlCache(SESSION_CACHE_MS, ctx.clock));
  return cache;
}

// A password reset on this instance (console or API) ends every kept session of the account.
onPasswordReset((ctx, accountId) => {
  caches.get(ctx)?.deleteWhere((row) => row?.account_id === accountId);
});

async function readSession(db: Kysely<DB>, idHash: string): Promise<SessionRow | null> {
  return await db.selectFrom("console_sessions as s")
    .innerJoin("accounts as a", "a.id", "s.account_id")
    .select([
      "s.account_id",
      "s.session_epoch",
      "s.created_at",
      "s.last_seen_at",
      "s.expires_at",
      "s.flash",
      "a.email",
      "a.full_name",
      "a.status",
      "a.session_epoch as account_epoch",
    ])
    .where("s.id_hash", "=", idHash).executeTakeFirst() ?? null;
}

/**
 * The live session a cookie value names, or null (an ended one is deleted on the way). Read
 * from this instance's memory when it read it less than SESSION_CACHE_MS ago.
 */
export async function findSession(
  ctx: PlatformContext,
  id: string,
  now: Date,
): Promise<ConsoleSession | null> {
  if (!ID_SHAPE.test(id)) return null;
  const idHash = idHashOf(id);
  const cache = cacheOf(ctx);
  // Unknown ids are not kept: anyone can send well-formed ones.
  const row = await cache.get(idHash, () => readSession(ctx.db, idHash), (r) => r !== null);
  if (!row) return null;
  const t = now.getTime();
  const ended = row.expires_at.getTime() <= t ||
    row.last_seen_at.getTime() + SESSION_IDLE_MS <= t ||
    row.session_epoch !== row.account_epoch || row.status !== "verified";
  if (ended) {
    await endSession(ctx, idHash);
    return null;
  }
  if (t - row.last_seen_at.getTime() >= TOUCH_EVERY_MS) {
    await ctx.db.updateTable("console_sessions").set({ last_seen_at: now })
      .where("id_hash", "=", idHash).execute();
    if (row.last_seen_at < now) row.last_seen_at = now;
  }
  return {
    idHash,
    accountId: row.account_id,
    email: row.email,
    fullName: row.full_name,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    flash: row.flash,
  };
}

/** Ends one session (log-out, expiry), here and in this instance's memory. */
export async function endSession(ctx: PlatformContext, idHash: string): Promise<void> {
  const cache = cacheOf(ctx);
  cache.delete(idHash);
  await ctx.db.deleteFrom("console_sessions").where("id_hash", "=", idHash).execute();
  cache.delete(idHash);
}

/** Keeps a sealed value for the session's next page view that asks for it. */
export async function putFlash(
  ctx: PlatformContext,
  idHash: string,
  sealed: string,
): Promise<void> {
  await ctx.db.updateTable("console_sessions").set({ flash: sealed })
    .where("id_hash", "=", idHash).execute();
  cacheOf(ctx).delete(idHash);
}

/** Takes the session's sealed value, once: the row no longer holds it afterwards. */
export async function takeFlash(ctx: PlatformContext, idHash: string): Promise<string | null> {
  const flash = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("console_sessions").select("flash")
      .where("id_hash", "=", idHash).forUpdate().executeTakeFirst();
    if (!row?.flash) return null;
    await trx.updateTable("console_sessions").set({ flash: null }).where("id_hash", "=", idHash)
      .execute();
    return row.flash;
  });
  if (flash !== null) cacheOf(ctx).delete(idHash);
  return flash;
}
