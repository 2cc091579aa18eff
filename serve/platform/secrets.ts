/**
 * The service's signing and encryption keys. One root secret (AUTH_SECRET, or a random value
 * generated once and kept in Postgres so every instance sharing the database agrees) is
 * stretched with HKDF into separate keys per purpose, so no key is ever used for two things.
 */
import { type Kysely, sql } from "kysely";
import type { DB } from "../stores/schema.ts";

/** Keys derived from the root secret. */
export interface ServiceKeys {
  /** HMAC-SHA256 secret for management JWTs. */
  jwtSecret: string;
  /** HMAC key that signs one-time email tokens. */
  emailTokenKey: CryptoKey;
  /** AES-GCM key that encrypts outbox bodies until delivery. */
  outboxKey: CryptoKey;
  /** HMAC key that signs list cursors (tamper-evident paging). */
  cursorKey: CryptoKey;
  /** AES-GCM key that encrypts the answers kept for Idempotency-Key replays. */
  idempotencyKey: CryptoKey;
  /** HMAC key that signs the developer console's CSRF tokens. */
  consoleCsrfKey: CryptoKey;
  /** AES-GCM key that seals a new API key for the one console page view that shows it. */
  consoleFlashKey: CryptoKey;
}

const ROOT_NAME = "root_signing_secret";
const encoder = new TextEncoder();

/** base64url without padding. */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Decodes base64url (padding optional); throws on bad input. */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replaceAll("-", "+").replaceAll("_", "/");
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

/**
 * The root secret: the configured one, else the one stored in Postgres, creating it on the
 * very first start (ON CONFLICT keeps two instances starting together in agreement).
 */
export async function loadRootSecret(db: Kysely<DB>, configured?: string): Promise<string> {
  if (configured) return configured;
  const fresh = base64url(crypto.getRandomValues(new Uint8Array(32)));
  await sql`INSERT INTO service_secrets (name, value) VALUES (${ROOT_NAME}, ${fresh})
    ON CONFLICT (name) DO NOTHING`.execute(db);
  const row = await db.selectFrom("service_secrets").select("value").where("name", "=", ROOT_NAME)
    .executeTakeFirstOrThrow();
  return row.value;
}

async function derive(root: CryptoKey, info: string, usage: "hmac" | "aes"): Promise<CryptoKey> {
  const params = {
    name: "HKDF",
    hash: "SHA-256",
    salt: new Uint8Array(0),
    info: encoder.encode(info),
  };
  return usage === "hmac"
    ? await crypto.subtle.deriveKey(
      params,
      root,
      { name: "HMAC", hash: "SHA-256", length: 256 },
      true,
      [
        "sign",
        "verify",
      ],
    )
    : await crypto.subtle.deriveKey(params, root, { name: "AES-GCM", length: 256 }, false, [
      "encrypt",
      "decrypt",
    ]);
}

/** Derives the per-purpose keys from the root secret. */
export async function deriveKeys(rootSecret: string): Promise<ServiceKeys> {
  const root = await crypto.subtle.importKey("raw", encoder.encode(rootSecret), "HKDF", false, [
    "deriveKey",
  ]);
  const jwtKey = await derive(root, "management-jwt-v1", "hmac");
  const jwtSecret = base64url(new Uint8Array(await crypto.subtle.exportKey("raw", jwtKey)));
  return {
    jwtSecret,
    emailTokenKey: await derive(root, "email-token-v1", "hmac"),
    outboxKey: await derive(root, "email-outbox-v1", "aes"),
    cursorKey: await derive(root, "list-cursor-v1", "hmac"),
    idempotencyKey: await derive(root, "idempotent-answers-v1", "aes"),
    consoleCsrfKey: await derive(root, "console-csrf-v1", "hmac"),
    consoleFlashKey: await derive(root, "console-flash-v1", "aes"),
  };
}

/** Encrypts text with AES-GCM: `v1.<iv>.<ciphertext>`, base64url. */
export async function sealText(key: CryptoKey, text: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, encoder.encode(text));
  return `v1.${base64url(iv)}.${base64url(new Uint8Array(ct))}`;
}

/** Decrypts what sealText produced; throws when the value was tampered with. */
export async function openText(key: CryptoKey, sealed: string): Promise<string> {
  const [version, iv, ct] = sealed.split(".");
  if (version !== "v1" || !iv || !ct) throw new Error("unknown sealed-text format");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64url(iv) },
    key,
    fromBase64url(ct),
  );
  return new TextDecoder().decode(plain);
}
