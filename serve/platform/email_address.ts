/**
 * Email address rule: the address is trimmed, Unicode-normalised (NFC), and its domain is
 * lower-cased and converted to its ASCII (IDNA) form. The local part keeps its case, as RFC
 * 5321 allows mailboxes to be case-sensitive. Two addresses that normalise alike are the same
 * account.
 */

// deno-lint-ignore no-control-regex -- control characters are exactly what is refused
const LOCAL = /^[^\s@"(),:;<>[\]\\\u0000-\u001f\u007f]{1,64}$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The normalised address, or null when it is not a usable mailbox address. */
export function normalizeEmail(input: string): string | null {
  const trimmed = input.trim().normalize("NFC");
  if (trimmed.length > 254) return null;
  const at = trimmed.lastIndexOf("@");
  if (at <= 0 || at === trimmed.length - 1) return null;
  const local = trimmed.slice(0, at);
  if (!LOCAL.test(local) || local.startsWith(".") || local.endsWith(".") || local.includes("..")) {
    return null;
  }
  const rawDomain = trimmed.slice(at + 1).toLowerCase();
  // Only what can be a host name (IDN letters included) reaches the URL parser, which would
  // otherwise quietly drop paths, ports and escapes.
  if (!/^[^\s/?#%:@[\]\\]+$/.test(rawDomain)) return null;
  let domain: string;
  try {
    domain = new URL(`http://${rawDomain}`).hostname;
  } catch {
    return null;
  }
  const labels = domain.split(".");
  if (labels.length < 2 || domain.length > 253 || !labels.every((l) => LABEL.test(l))) return null;
  if (/^\d+$/.test(labels[labels.length - 1])) return null; // an IP address, not a mail domain
  const email = `${local}@${domain}`;
  return email.length <= 254 ? email : null;
}

/** The key that makes addresses differing only in case one account. */
export function emailKey(email: string): string {
  return email.toLowerCase();
}
