/**
 * Account lifecycle: register, verify email, resend verification, forgot and reset password,
 * log in. Answers that could reveal whether an email has an account are identical for known
 * and unknown emails and cost about the same time; every email is written to the outbox in
 * the same transaction as the change that causes it.
 */
import { sql, type Transaction } from "kysely";
import type { DB } from "../stores/schema.ts";
import { ApiError } from "../http/errors.ts";
import { enqueueEmail } from "../email/outbox.ts";
import type { PlatformContext } from "./context.ts";
import { hashPassword, passwordProblem, verifyPassword } from "./passwords.ts";
import {
  EMAIL_TOKEN_TTL_MS,
  emailTokenHash,
  type EmailTokenPurpose,
  type IssuedToken,
  issueManagementToken,
  mintEmailToken,
} from "./tokens.ts";
import { passwordChangedEmail, resetEmail, verificationEmail } from "./messages.ts";
import { provisionBeta } from "./contracts.ts";
import { claimAttempt, clearFailures, loginSubjects, settleAttempt } from "./throttle.ts";
import { sha256Hex } from "../../build/hash.ts";
import { emailKey } from "./email_address.ts";

/** A resend or reset email is sent at most this often per account; extra asks are ignored. */
export const EMAIL_RESEND_INTERVAL_MS = 60_000;
/** ...and at most this many per account, kind and 24 hours. */
export const EMAIL_DAILY_MAX = 5;
/** An unverified registration holds its address (and can be resent) this long. */
export const REGISTRATION_TTL_MS = 24 * 3_600_000;

/** Unauthenticated account requests (register, resend, forgot, reset) per client address. */
const ACCOUNT_REQUESTS_PER_ADDRESS = 50;

/**
 * Refuses a client address that sent more than 50 account requests within 15 minutes of each
 * other (429), whatever the emails: it bounds password hashing and mail a flood can cause,
 * and says nothing about any account.
 */
export async function guardAccountRequests(ctx: PlatformContext, address: string): Promise<void> {
  const subject = {
    key: `account-requests:${await sha256Hex(address)}`,
    free: ACCOUNT_REQUESTS_PER_ADDRESS,
  };
  const { wait } = await claimAttempt(ctx.db, [subject], ctx.clock());
  if (wait > 0) {
    throw new ApiError(
      "rate_limited",
      "too many account requests from this address; try again later",
      {},
      { "retry-after": String(Math.ceil(wait / 1000)) },
    );
  }
}

/** The generic registration answer. */
export const REGISTERED = {
  status: "pending_verification" as const,
  message: "If this email can be registered, a verification link is on its way to it.",
  next_step: "Open the link in the email (valid for 24 hours) to activate Beta access, " +
    "then log in with POST /api/v1/platform/login.",
};

/** Registers an account; the answer never says whether the email was already taken. */
export async function register(
  ctx: PlatformContext,
  input: { email: string; password: string; full_name: string; company_name: string },
): Promise<typeof REGISTERED> {
  // Hash on every path (the cost a flood of sign-ups pays before its answer); the database
  // work runs after the answer, so a taken email answers in the same time as a new one. The
  // hash waits for a turn at the password gate before anything is looked up, so its 503 (when
  // the server is busy) says nothing about the email either.
  const passwordHash = await ctx.passwordGate.run(() => hashPassword(input.password));
  const now = ctx.clock();
  await ctx.tasks.run("register", () => createAccount(ctx, input, passwordHash, now));
  return REGISTERED;
}

/**
 * Creates the account and mails its link. An address is taken by a verified account or by a
 * registration younger than 24 hours; an older unverified one has lapsed (resending does not
 * extend it), so a squat on an email one cannot read lapses within a day.
 */
async function createAccount(
  ctx: PlatformContext,
  input: { email: string; full_name: string; company_name: string },
  passwordHash: string,
  now: Date,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom("accounts").select(["id", "status", "created_at"])
      .where("email_key", "=", emailKey(input.email)).forUpdate().executeTakeFirst();
    if (existing) {
      if (existing.status !== "pending_verification") return;
      if (existing.created_at.getTime() > now.getTime() - REGISTRATION_TTL_MS) return;
      // The registration lapsed unverified: it no longer holds the address.
      await trx.deleteFrom("accounts").where("id", "=", existing.id).execute();
    }
    const created = await trx.insertInto("accounts").values({
      email: input.email,
      email_key: emailKey(input.email),
      password_hash: passwordHash,
      full_name: input.full_name,
      company_name: input.company_name,
      status: "pending_verification",
      created_at: now,
    }).onConflict((oc) => oc.column("email_key").doNothing()).returning("id").executeTakeFirst();
    if (!created) return;
    await sendToken(
      ctx,
      trx,
      created.id,
      "verify_email",
      now,
      (token) => verificationEmail(input.email, ctx.settings.publicBaseUrl, token),
    );
  });
}

async function sendToken(
  ctx: PlatformContext,
  trx: Transaction<DB>,
  accountId: string,
  purpose: EmailTokenPurpose,
  now: Date,
  compose: (token: string) => Parameters<typeof enqueueEmail>[2],
): Promise<void> {
  const { token, hash } = await mintEmailToken(ctx.keys.emailTokenKey, purpose);
  await trx.insertInto("email_tokens").values({
    account_id: accountId,
    purpose,
    token_hash: hash,
    created_at: now,
    expires_at: new Date(now.getTime() + EMAIL_TOKEN_TTL_MS[purpose]),
  }).execute();
  await enqueueEmail(trx, ctx.keys.outboxKey, compose(token), now);
}

/** Outcome of redeeming an email token. */
export type TokenOutcome = "ok" | "invalid_token" | "expired_token";

/**
 * Locks and checks a token inside a transaction: unknown, used, or (when `email` is given)
 * someone else's is invalid; past its expiry is expired. A good token is marked used.
 */
async function redeem(
  ctx: PlatformContext,
  trx: Transaction<DB>,
  purpose: EmailTokenPurpose,
  token: string,
  now: Date,
  email?: string,
) {
  const hash = await emailTokenHash(ctx.keys.emailTokenKey, purpose, token);
  if (!hash) return { outcome: "invalid_token" as const };
  const row = await trx.selectFrom("email_tokens as t")
    .innerJoin("accounts as a", "a.id", "t.account_id")
    .select(["t.id", "t.used_at", "t.expires_at", "a.id as account_id", "a.email"])
    .where("t.token_hash", "=", hash).where("t.purpose", "=", purpose)
    .forUpdate().executeTakeFirst();
  if (
    !row || row.used_at !== null ||
    (email !== undefined && emailKey(row.email) !== emailKey(email))
  ) {
    return { outcome: "invalid_token" as const };
  }
  if (row.expires_at.getTime() <= now.getTime()) return { outcome: "expired_token" as const };
  // Using one token closes every open token of the same purpose for the account.
  await trx.updateTable("email_tokens").set({ used_at: now })
    .where("account_id", "=", row.account_id).where("purpose", "=", purpose)
    .where("used_at", "is", null).execute();
  return { outcome: "ok" as const, account: row };
}

/** The answer to a good verification. */
export const VERIFIED = {
  status: "verified" as const,
  message: "Your email address is verified and your Beta access is active.",
  beta_access: "activated" as const,
  next_step: "Log in with POST /api/v1/platform/login, then create a runtime API key with " +
    "POST /api/v1/platform/api-keys/create.",
};

/** Verifies an email with a token; provisions Beta access when no contract is in force. */
export async function verifyEmail(
  ctx: PlatformContext,
  token: string,
  email?: string,
): Promise<typeof VERIFIED | { status: "invalid_token" | "expired_token" }> {
  const now = ctx.clock();
  return await ctx.db.transaction().execute(async (trx) => {
    const result = await redeem(ctx, trx, "verify_email", token, now, email);
    if (result.outcome !== "ok") return { status: result.outcome };
    await trx.updateTable("accounts")
      .set({ status: "verified", verified_at: sql`COALESCE(verified_at, ${now})` })
      .where("id", "=", result.account.account_id).execute();
    await provisionBeta(trx, result.account.account_id, ctx.settings.beta, now);
    return VERIFIED;
  });
}

/** The generic answer to resend-verification. */
export const RESEND_ACCEPTED = {
  status: "accepted" as const,
  message: "If an account with this email is waiting for verification, a new link is on its " +
    "way. Earlier links stop working.",
};

/** The generic answer to forgot-password. */
export const RESET_REQUESTED = {
  status: "accepted" as const,
  message: "If an account with this email exists, a one-time reset link (valid for 1 hour) " +
    "is on its way.",
};

/** Sends a token email for `purpose` when the account qualifies and was not mailed recently. */
async function mailTokenIfEligible(
  ctx: PlatformContext,
  email: string,
  purpose: EmailTokenPurpose,
  now: Date,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const account = await trx.selectFrom("accounts")
      .select(["id", "email", "status", "created_at"]).where("email_key", "=", emailKey(email))
      .forUpdate()
      .executeTakeFirst();
    if (!account) return;
    if (
      purpose === "verify_email" &&
      (account.status !== "pending_verification" ||
        account.created_at.getTime() <= now.getTime() - REGISTRATION_TTL_MS)
    ) return; // verified, or lapsed: register again
    const sent = await trx.selectFrom("email_tokens").select("created_at")
      .where("account_id", "=", account.id).where("purpose", "=", purpose)
      .where("created_at", ">", new Date(now.getTime() - 86_400_000)).execute();
    // Nobody's mailbox can be flooded through these forms: at most one mail a minute, and past
    // five a day at most one an hour (so a flood cannot lock the owner out of recovery).
    const since = (ms: number) => sent.some((t) => t.created_at.getTime() > now.getTime() - ms);
    if (since(EMAIL_RESEND_INTERVAL_MS)) return;
    if (sent.length >= EMAIL_DAILY_MAX && since(3_600_000)) return;
    if (purpose === "verify_email") {
      await trx.updateTable("email_tokens").set({ used_at: now })
        .where("account_id", "=", account.id).where("purpose", "=", purpose)
        .where("used_at", "is", null).execute();
    }
    await sendToken(
      ctx,
      trx,
      account.id,
      purpose,
      now,
      (token) =>
        purpose === "verify_email"
          ? verificationEmail(account.email, ctx.settings.publicBaseUrl, token)
          : resetEmail(account.email, ctx.settings.publicBaseUrl, token),
    );
  });
}

/** Resends a verification email; the answer never says whether the account exists. */
export async function resendVerification(ctx: PlatformContext, email: string) {
  // The request's own time decides the once-a-minute rule, not when the work after the answer
  // happens to run.
  const now = ctx.clock();
  await ctx.tasks.run(
    "resend_verification",
    () => mailTokenIfEligible(ctx, email, "verify_email", now),
  );
  return RESEND_ACCEPTED;
}

/** Sends a reset link; the answer never says whether the account exists. */
export async function forgotPassword(ctx: PlatformContext, email: string) {
  const now = ctx.clock();
  await ctx.tasks.run(
    "forgot_password",
    () => mailTokenIfEligible(ctx, email, "reset_password", now),
  );
  return RESET_REQUESTED;
}

/** The answer to a good reset. */
export const PASSWORD_RESET = {
  status: "password_reset" as const,
  message: "Your password was changed and every earlier management token and console " +
    "session was signed out.",
  next_step: "Log in with POST /api/v1/platform/login using the new password.",
};

/** Told, on this instance, that a password reset of an account has committed. */
export type PasswordResetListener = (ctx: PlatformContext, accountId: string) => void;
const resetListeners = new Set<PasswordResetListener>();

/**
 * Calls `listener` after every password reset this instance commits, with the platform
 * context it ran in and the account (the console drops its cached sessions of the account).
 */
export function onPasswordReset(listener: PasswordResetListener): void {
  resetListeners.add(listener);
}

/**
 * Replaces the password. Ends every outstanding reset token, every management token issued
 * before it (the account's session epoch moves on) and every console session, and mails a
 * notice.
 */
export async function resetPassword(
  ctx: PlatformContext,
  token: string,
  newPassword: string,
): Promise<typeof PASSWORD_RESET | { status: "invalid_token" | "expired_token" }> {
  // A forged token is refused before the (deliberately costly) hash is computed.
  if (!(await emailTokenHash(ctx.keys.emailTokenKey, "reset_password", token))) {
    return { status: "invalid_token" };
  }
  const passwordHash = await ctx.passwordGate.run(() => hashPassword(newPassword));
  const now = ctx.clock();
  const reset: { account: string | null } = { account: null };
  const answer = await ctx.db.transaction().execute(async (trx) => {
    const result = await redeem(ctx, trx, "reset_password", token, now);
    if (result.outcome !== "ok") return { status: result.outcome };
    const { account } = result;
    const problem = passwordProblem(newPassword, account.email);
    if (problem) {
      throw new ApiError("validation_failed", "1 field(s) failed validation", {
        errors: [{
          loc: ["body", "new_password"],
          msg: `Password ${problem}`,
          type: "password_policy",
        }],
      });
    }
    await trx.updateTable("accounts").set({
      password_hash: passwordHash,
      password_changed_at: now,
      session_epoch: sql`session_epoch + 1`,
    }).where("id", "=", account.account_id).execute();
    // Every developer console session of the account ends too (they also carry the epoch).
    await trx.deleteFrom("console_sessions").where("account_id", "=", account.account_id)
      .execute();
    const keys = await trx.selectFrom("api_keys").select(["name", "prefix"])
      .where("account_id", "=", account.account_id).where("status", "=", "active")
      .orderBy("name").execute();
    await enqueueEmail(trx, ctx.keys.outboxKey, passwordChangedEmail(account.email, keys), now);
    const [emailSubject] = await loginSubjects(account.email, "");
    await clearFailures(trx, emailSubject);
    reset.account = account.account_id;
    return PASSWORD_RESET;
  });
  if (reset.account !== null) {
    for (const listener of resetListeners) listener(ctx, reset.account);
  }
  return answer;
}

/**
 * Logs in: a management token for a verified account with the right password. Every failure
 * is the same 401; a throttled email or address is 429 before any password is checked.
 */
export async function login(
  ctx: PlatformContext,
  email: string,
  password: string,
  clientAddress: string,
): Promise<IssuedToken> {
  const account = await authenticate(ctx, email, password, clientAddress);
  return await issueManagementToken(
    ctx.keys.jwtSecret,
    account,
    ctx.clock(),
    ctx.settings.managementTokenTtlSeconds,
  );
}

/**
 * Checks an email and password under the login throttle and the password gate: the verified
 * account, or the same 401 for every failure (429 when throttled, 503 when the gate is full).
 * Both the API login and the developer console sign in through it.
 */
export async function authenticate(
  ctx: PlatformContext,
  email: string,
  password: string,
  clientAddress: string,
): Promise<{ id: string; session_epoch: number }> {
  // A full password gate refuses before the throttle's two transactions (it says nothing
  // about any account): under a flood, refusals then cost next to nothing.
  ctx.passwordGate.refuseIfFull();
  const now = ctx.clock();
  const subjects = await loginSubjects(email, clientAddress);
  const claim = await claimAttempt(ctx.db, subjects, now);
  if (claim.wait > 0) {
    throw new ApiError(
      "rate_limited",
      "too many failed sign-in attempts; try again later",
      {},
      { "retry-after": String(Math.ceil(claim.wait / 1000)) },
    );
  }
  // A turn at the password gate comes before the account is looked up, so a 503 from a busy
  // server is the same for every email; the refused attempt is given back, not counted.
  let release: () => void;
  try {
    release = await ctx.passwordGate.acquire();
  } catch (error) {
    await settleAttempt(ctx.db, subjects, claim, now, true);
    throw error;
  }
  const { account, passwordOk } = await (async () => {
    try {
      const account = await ctx.db.selectFrom("accounts")
        .select(["id", "password_hash", "status", "session_epoch"])
        .where("email_key", "=", emailKey(email)).executeTakeFirst();
      return {
        account,
        passwordOk: await verifyPassword(account?.password_hash ?? null, password),
      };
    } finally {
      release();
    }
  })();
  const success = account !== undefined && passwordOk && account.status === "verified";
  await settleAttempt(ctx.db, subjects, claim, now, success);
  if (!success) {
    throw new ApiError(
      "unauthorized",
      "the email or password is wrong, or the email is not verified yet",
      {},
      { "www-authenticate": 'Bearer realm="management"' },
    );
  }
  await clearFailures(ctx.db, subjects[0]);
  return { id: account.id, session_epoch: account.session_epoch };
}
