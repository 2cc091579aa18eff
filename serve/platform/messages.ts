/** The account emails. Plain text; links carry `token=<value>` as a query parameter. */
import type { OutgoingEmail } from "../email/mailer.ts";

function link(base: string, path: string, token: string): string {
  const url = new URL(path, base.endsWith("/") ? base : `${base}/`);
  url.searchParams.set("token", token);
  return url.toString();
}

/** The verification email sent on registration and on resend. */
export function verificationEmail(
  to: string,
  base: string,
  token: string,
): OutgoingEmail {
  return {
    kind: "verify_email",
    to,
    subject: "Verify your email address",
    text: [
      "Hello,",
      "",
      "Confirm your email address to activate your Beta access:",
      "",
      link(base, "console/verify", token),
      "",
      "The link opens the developer console, where one click confirms the address. Without a",
      "browser, send this token to GET /api/v1/platform/verify-email?token=<token> instead:",
      `Token: ${token}`,
      "",
      "The link works once and expires in 24 hours. If you did not create an account,",
      "ignore this email; nothing else will happen.",
    ].join("\n"),
  };
}

/** The one-time password reset email. */
export function resetEmail(to: string, base: string, token: string): OutgoingEmail {
  return {
    kind: "reset_password",
    to,
    subject: "Reset your password",
    text: [
      "Hello,",
      "",
      "Someone asked to reset the password of your account. To choose a new one, open:",
      "",
      link(base, "console/reset", token),
      "",
      "or send this token to POST /api/v1/platform/reset-password as",
      '{"token": "<token>", "new_password": "<new password>"}:',
      `Token: ${token}`,
      "",
      "The link works once and expires in 1 hour. If you did not ask for this, ignore this",
      "email; your password stays as it is.",
    ].join("\n"),
  };
}

/**
 * The notice sent after a password change (OWASP ASVS 2.2.3). It lists the live runtime keys,
 * which a password change does not revoke, so an owner can revoke any they do not recognise.
 */
export function passwordChangedEmail(
  to: string,
  keys: { name: string; prefix: string }[],
): OutgoingEmail {
  const listed = keys.length === 0 ? ["The account has no active runtime API keys."] : [
    "These runtime API keys stay active; revoke any you do not recognise with",
    "POST /api/v1/platform/api-keys/revoke:",
    ...keys.map((k) => `  - ${k.name} (${k.prefix}...)`),
  ];
  return {
    kind: "password_changed",
    to,
    subject: "Your password was changed",
    text: [
      "Hello,",
      "",
      "The password of your account was just changed, and every management session was",
      "signed out. If this was not you, reset your password now and contact support.",
      "",
      ...listed,
    ].join("\n"),
  };
}
