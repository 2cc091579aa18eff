/**
 * Email transports: SMTP for real delivery, and a folder of `.eml` files for development, where
 * a developer opens the verification mail in any mail client instead of running a mail server.
 * Both build the message with nodemailer, so the file is exactly what SMTP would have carried.
 */
import nodemailer from "nodemailer";
import { join } from "node:path";
import type { Logger } from "../http/log.ts";

/** One message as the platform produces it: plain text only. */
export interface OutgoingEmail {
  /** What the mail is for (e.g. `verify_email`); used in logs and file names, never secret. */
  kind: string;
  to: string;
  subject: string;
  text: string;
}

/** Something that delivers one message at a time. */
export interface Transport {
  readonly name: "smtp" | "file";
  send(email: OutgoingEmail, from: string): Promise<void>;
  close(): Promise<void>;
}

// Long enough for a slow relay, short enough that a hung one cannot hold a send past the
// outbox's claim lease (60 s by default).
const SMTP_TIMEOUT_MS = 10_000;

/** Throws when an address could smuggle extra headers or recipients into the message. */
export function assertSafeAddress(field: "to" | "from", value: string): void {
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value) || value.trim() === "") {
    throw new Error(`email ${field} address is empty or contains control characters`);
  }
}

/** The subject on one line: CR, LF and other control characters become spaces. */
export function cleanSubject(subject: string): string {
  // deno-lint-ignore no-control-regex
  return subject.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
}

/**
 * nodemailer message options. `to` is passed as an address object so a value like
 * `a@x, b@y` stays one (invalid) recipient instead of becoming two; file and URL access is
 * off so no message field can make nodemailer read a local file or fetch a URL.
 */
function messageOptions(email: OutgoingEmail, from: string) {
  assertSafeAddress("to", email.to);
  assertSafeAddress("from", from);
  return {
    from,
    to: { name: "", address: email.to },
    subject: cleanSubject(email.subject),
    text: email.text,
    textEncoding: "quoted-printable" as const,
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** Delivers through the SMTP server named by a `smtp://` or `smtps://` URL. */
export function smtpTransport(url: string): Transport {
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    name: "smtp",
    async send(email, from) {
      await transporter.sendMail(messageOptions(email, from));
    },
    close() {
      transporter.close();
      return Promise.resolve();
    },
  };
}

/** `2026-11-21T13-00-00.000Z-verify_email-1a2b3c4d.eml`: sorts by time, never collides. */
function emlName(kind: string, now: Date): string {
  const safeKind = kind.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40) || "email";
  const random = Array.from(
    crypto.getRandomValues(new Uint8Array(4)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  return `${now.toISOString().replaceAll(":", "-")}-${safeKind}-${random}.eml`;
}

/**
 * The message with its body as plain 8bit text (RFC 6152), so a person (or grep) can read and
 * copy the link and token from the file; nodemailer's quoted-printable would soft-wrap them.
 * nodemailer still writes the headers (Date, Message-ID, encoded Subject): it composes the
 * message around a one-line placeholder body, which gets 7bit, and the body is swapped in.
 */
async function readableMessage(
  composer: ReturnType<typeof nodemailer.createTransport>,
  email: OutgoingEmail,
  from: string,
): Promise<Uint8Array> {
  const info = await composer.sendMail({ ...messageOptions(email, from), text: "body" });
  const raw = new TextDecoder().decode(info.message as Uint8Array);
  const split = raw.indexOf("\r\n\r\n");
  const headers = raw.slice(0, split).replace(
    /^Content-Transfer-Encoding: 7bit$/im,
    "Content-Transfer-Encoding: 8bit",
  );
  if (!/^Content-Transfer-Encoding: 8bit$/m.test(headers)) {
    throw new Error("unexpected message layout from nodemailer");
  }
  const body = email.text.replace(/\r?\n/g, "\r\n");
  return new TextEncoder().encode(`${headers}\r\n\r\n${body}\r\n`);
}

/** Writes each message as an RFC 5322 `.eml` file into dir (created when missing). */
export function fileTransport(dir: string, logger: Logger): Transport {
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "windows",
  });
  return {
    name: "file",
    async send(email, from) {
      const bytes = await readableMessage(composer, email, from);
      await Deno.mkdir(dir, { recursive: true });
      const name = emlName(email.kind, new Date());
      const file = join(dir, name);
      // Written under a name no reader looks for, then renamed: a mail client or test
      // watching the folder never sees half a message. 0600: the body holds one-time links.
      const temp = join(dir, `.${name}.tmp`);
      try {
        await Deno.writeFile(temp, bytes, { mode: 0o600 });
        await Deno.rename(temp, file);
      } catch (error) {
        await Deno.remove(temp).catch(() => {});
        throw error;
      }
      logger.info("email written to outbox", { kind: email.kind, file });
    },
    close() {
      composer.close();
      return Promise.resolve();
    },
  };
}
