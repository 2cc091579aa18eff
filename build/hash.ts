/** Hashing helpers: file digests and the order-sensitive content hash of tables. */
import { createHash } from "node:crypto";

/** Hex sha256 of bytes. */
export async function sha256Hex(bytes: Uint8Array | string): Promise<string> {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  const digest = await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Hex sha256 of a file, streamed so large artifacts are not held in memory. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  const file = await Deno.open(path, { read: true }); // readable closes it at the end
  for await (const chunk of file.readable) hash.update(chunk);
  return hash.digest("hex");
}

/** An incremental sha256 over canonical JSON lines, used for table content hashes. */
export class LineHasher {
  #hash = createHash("sha256");
  /** Adds one row; bigints are written as decimal strings (tables hold no NaN or Infinity). */
  add(row: readonly unknown[]): void {
    this.#hash.update(JSON.stringify(row, (_k, v) => typeof v === "bigint" ? v.toString() : v));
    this.#hash.update("\n");
  }
  /** Finishes and returns the hex digest. */
  hex(): string {
    return this.#hash.digest("hex");
  }
}
