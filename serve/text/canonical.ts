/**
 * RFC 8785 JSON Canonicalization Scheme (JCS): object members sorted by their names' UTF-16
 * code units, no whitespace, numbers and strings serialised as ECMAScript's JSON.stringify does
 * (which is what JCS specifies). The pack's hash is the sha256 of these bytes.
 */
import { createHash } from "node:crypto";

/** The canonical JSON text of a JSON value; throws on values JSON cannot hold. */
export function canonicalize(value: unknown): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") {
    return JSON.stringify(value);
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("JCS: non-finite number");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalize).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalize(v)}`).join(",")}}`;
  }
  throw new Error(`JCS: cannot serialise a ${typeof value}`);
}

/** Hex sha256 of the canonical JSON of a value. */
export function canonicalSha256(value: unknown): string {
  return createHash("sha256").update(canonicalize(value)).digest("hex");
}
