/**
 * Password policy and hashing. Policy (OWASP ASVS 2.1): 12 to 128 characters, any
 * characters, no composition rules, not one of the most common passwords and not the
 * account's own email. Hashing: argon2id with OWASP's parameters (19 MiB, 2 iterations,
 * parallelism 1).
 */
import { type Algorithm, hash, verify } from "@node-rs/argon2";
import { COMMON_PASSWORDS } from "./common_passwords.ts";

/** Password length bounds, in characters. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;

// Algorithm is a const enum, which isolated modules cannot read; 2 is Argon2id (tests check
// the PHC string says so).
const ARGON2ID = 2 as Algorithm;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

const common = new Set(COMMON_PASSWORDS);

/** Why a password of acceptable length is refused (common, repetitive), or null. */
export function passwordPolicyProblem(password: string): string | null {
  const folded = password.toLowerCase();
  if (common.has(folded)) return "is one of the most commonly used passwords";
  if (new Set(folded).size <= 2) return "repeats too few distinct characters";
  return null;
}

/** Whether the password is the email address itself (compared case-insensitively). */
export function passwordIsEmail(password: string, email: string): boolean {
  return password.trim().toLowerCase() === email.trim().toLowerCase();
}

/** Why a password is refused, or null when it is acceptable. Never includes the password. */
export function passwordProblem(password: string, email?: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `must be at least ${PASSWORD_MIN} characters`;
  if (length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  const policy = passwordPolicyProblem(password);
  if (policy) return policy;
  if (email && passwordIsEmail(password, email)) return "must not be the email address";
  return null;
}

/** An argon2id PHC string for the password. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummy: Promise<string> | null = null;

/**
 * Checks a password against a stored hash. With no stored hash (unknown account) it checks
 * against a dummy hash instead, so both paths cost the same time.
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    dummy ??= hashPassword(crypto.randomUUID());
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
