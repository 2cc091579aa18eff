/** Hashing helpers: file digests and the order-sensitive content hash of tables. */
import { createHash } from "node:crypto";

/** Hex sha256 of bytes. */
export async function sha256Hex(bytes: Uint8Array | string): Promise<string> {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  const digest = await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Hex sha256 of a file, streamed so large artifacts are not held in memory. */
export async function sha256File(
  path: string,
  /** Awaited after every few megabytes (a server hashing a new version keeps answering). */
  pause?: () => Promise<void>,
): Promise<string> {
  const hash = createHash("sha256");
  const file = await Deno.open(path, { read: true }); // readable closes it at the end
  let sincePause = 0;
  for await (const chunk of file.readable) {
    hash.update(chunk);
    sincePause += chunk.length;
    if (pause && sincePause >= PAUSE_BYTES) {
      sincePause = 0;
      await pause();
    }
  }
  return hash.digest("hex");
}

/** Bytes hashed between two pauses of sha256File: read from the page cache, about 5 ms. */
const PAUSE_BYTES = 2 << 20;

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
