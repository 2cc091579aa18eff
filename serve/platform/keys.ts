/**
 * Runtime API key format, after GitHub's: `oik_` (occupation intelligence key), 32 random
 * base62 characters (190 bits), then a 6-character base62 CRC32 of the random part. The
 * prefix lets secret scanners find a leaked key; the checksum rejects a mistyped key without
 * a database read. Keys are stored only as their SHA-256 hash.
 */

/** The recognisable key prefix. */
export const KEY_PREFIX = "oik_";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SHAPE = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) {
    crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, width: number): string {
  let out = "";
  for (let i = 0; i < width; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62]; // 248 = 4 * 62: no bias
    }
  }
  return out;
}

/** A new raw key. */
export function generateKey(): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `${KEY_PREFIX}${random}${base62(crc32(random), CHECKSUM_LENGTH)}`;
}

/** Whether a string has the key shape and a correct checksum (no database read). */
export function isWellFormedKey(candidate: string): boolean {
  if (!SHAPE.test(candidate)) return false;
  const body = candidate.slice(KEY_PREFIX.length);
  const random = body.slice(0, RANDOM_LENGTH);
  return base62(crc32(random), CHECKSUM_LENGTH) === body.slice(RANDOM_LENGTH);
}

/** What a key may be shown as after creation: its first 8 and last 4 characters. */
export function keyHints(key: string): { prefix: string; last_four: string } {
  return { prefix: key.slice(0, KEY_PREFIX.length + 4), last_four: key.slice(-4) };
}
