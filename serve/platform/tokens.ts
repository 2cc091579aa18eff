/**
 * One-time email tokens and management tokens.
 *
 * Email tokens are `<43 random base64url>.<22-char HMAC tag>`: the tag, keyed per purpose,
 * lets a forged or mistyped token be refused without a database read; the database keeps
 * only the token's SHA-256, its expiry and when it was used.
 *
 * Management tokens are HS256 JWTs with `typ: "management"`, the account id as `sub`, the
 * account's session epoch as `sep` (a password reset bumps it, ending every earlier token)
 * and a short lifetime (MANAGEMENT_TOKEN_TTL_SECONDS, 15 minutes by default).
 */
import { sign, verify } from "hono/jwt";
import { base64url } from "./secrets.ts";
import { sha256Hex } from "../../build/hash.ts";

/** What an email token is for. */
export type EmailTokenPurpose = "verify_email" | "reset_password";

/** Email token lifetimes. */
export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = {
  verify_email: 24 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
};

const encoder = new TextEncoder();
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}$/;

async function tag(key: CryptoKey, purpose: EmailTokenPurpose, random: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${purpose}:${random}`));
  return base64url(new Uint8Array(mac).slice(0, 16));
}

/** A new token and the hash to store for it. */
export async function mintEmailToken(
  key: CryptoKey,
  purpose: EmailTokenPurpose,
): Promise<{ token: string; hash: string }> {
  const random = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const token = `${random}.${await tag(key, purpose, random)}`;
  return { token, hash: await sha256Hex(token) };
}

/** The hash to look a token up by, or null when its shape or signature is wrong. */
export async function emailTokenHash(
  key: CryptoKey,
  purpose: EmailTokenPurpose,
  token: string,
): Promise<string | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [random, given] = token.split(".");
  const expected = await tag(key, purpose, random);
  let diff = 0; // constant-time comparison
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return diff === 0 ? await sha256Hex(token) : null;
}

const ISSUER = "occupation-intelligence";
const AUDIENCE = "management";

/** A management token as issued to a client. */
export interface IssuedToken {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  expires_at: string;
}

/** Issues a management JWT for an account. */
export async function issueManagementToken(
  secret: string,
  account: { id: string; session_epoch: number },
  now: Date,
  ttlSeconds: number,
): Promise<IssuedToken> {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + ttlSeconds;
  const access_token = await sign(
    {
      iss: ISSUER,
      aud: AUDIENCE,
      typ: "management",
      sub: String(account.id),
      sep: account.session_epoch,
      iat,
      exp,
      jti: crypto.randomUUID(),
    },
    secret,
    "HS256",
  );
  return {
    access_token,
    token_type: "Bearer",
    expires_in: ttlSeconds,
    expires_at: new Date(exp * 1000).toISOString(),
  };
}

/** Claims of a valid management token. */
export interface ManagementClaims {
  accountId: string;
  sessionEpoch: number;
}

/**
 * The claims of a management token with a good signature, issuer, audience and type that has
 * not expired at `now`; null otherwise. Expiry uses the injected clock, not the library's.
 */
export async function verifyManagementToken(
  secret: string,
  token: string,
  now: Date,
): Promise<ManagementClaims | null> {
  try {
    const claims = await verify(token, secret, {
      alg: "HS256",
      iss: ISSUER,
      aud: AUDIENCE,
      exp: false,
      nbf: false,
      iat: false,
    });
    if (claims.typ !== "management" || typeof claims.sub !== "string") return null;
    if (typeof claims.exp !== "number" || claims.exp * 1000 <= now.getTime()) return null;
    if (typeof claims.sep !== "number") return null;
    return { accountId: claims.sub, sessionEpoch: claims.sep };
  } catch {
    return null;
  }
}

/** Whether a credential has the shape of a JWT (three base64url segments). */
export function looksLikeJwt(credential: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(credential);
}
