/**
 * The built ranking index on disk: the taxonomy build writes it beside `taxonomy.duckdb`
 * (`engine.snapshot`), and a server whose engine code is the one that wrote it loads the index
 * from it instead of building it (about 2 s of CPU for the full release, the largest part of
 * start-up). Derived data: not in the manifest's content hash; a missing, stale or damaged
 * snapshot only means the server builds the index itself.
 *
 * Layout: one JSON header line (format, fingerprint, the parts' names and byte lengths, the
 * SHA-256 of everything after the header), then each part of OccupationIndex.snapshot() as node:v8
 * serialised bytes; a large map or list is written as several parts of the same name, and maps and
 * lists of Int32Arrays packed into one buffer (see pack and pieces). The fingerprint is a SHA-256 of RANKER_VERSION, the V8 version
 * and the source text of the engine's modules and the text normaliser, so any change to the code
 * that builds or reads the index, even without a version bump, makes old snapshots stale.
 */
import { createHash } from "node:crypto";
import { deserialize, serialize } from "node:v8";
import { join } from "node:path";
import { OccupationIndex, RANKER_VERSION } from "./index.ts";

/** The snapshot's file name inside a taxonomy artifact folder. */
export const SNAPSHOT_FILE = "engine.snapshot";
const FORMAT = 3;
const HASH_CHUNK = 4 << 20;

/**
 * Many small typed arrays deserialise slowly (the word-pair postings, about 50,000 of them, took
 * 84 ms in one piece, a stall for a server loading a new version). Maps and lists of Int32Arrays
 * are written packed, as one buffer with offsets, and come back as views into it.
 */
interface Packed {
  packed: "map" | "list";
  keys: string[];
  offsets: Int32Array;
  data: Int32Array;
}

function allInt32(values: Iterable<unknown>): boolean {
  let any = false;
  for (const v of values) {
    if (!(v instanceof Int32Array)) return false;
    any = true;
  }
  return any;
}

function pack(value: unknown): unknown {
  const lists = value instanceof Map && allInt32(value.values())
    ? { packed: "map" as const, keys: [...value.keys()], arrays: [...value.values()] }
    : Array.isArray(value) && allInt32(value)
    ? { packed: "list" as const, keys: [], arrays: value as Int32Array[] }
    : null;
  if (!lists) return value;
  const offsets = new Int32Array(lists.arrays.length + 1);
  for (let i = 0; i < lists.arrays.length; i++) {
    offsets[i + 1] = offsets[i] + lists.arrays[i].length;
  }
  const data = new Int32Array(offsets[lists.arrays.length]);
  lists.arrays.forEach((a, i) => data.set(a, offsets[i]));
  const packed: Packed = { packed: lists.packed, keys: lists.keys, offsets, data };
  return packed;
}

/** Entries per piece of a large map, and items per piece of a large list (of strings). */
const PIECES = { map: 8_000, list: 200, strings: 16_000 };

/**
 * A large map or list as pieces that each deserialise in a few milliseconds (fromSnapshot joins
 * them in order): a server loading a new version then pauses between pieces, not after 40 ms.
 */
function pieces(value: unknown, sizes: typeof PIECES): unknown[] {
  if (value instanceof Map && value.size > sizes.map) {
    const entries = [...value];
    const out: unknown[] = [];
    for (let i = 0; i < entries.length; i += sizes.map) {
      out.push(new Map(entries.slice(i, i + sizes.map)));
    }
    return out;
  }
  if (Array.isArray(value) && value.length > 0) {
    const size = typeof value[0] === "string" ? sizes.strings : sizes.list;
    if (value.length <= size || value[0] instanceof Int32Array) return [value];
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i += size) out.push(value.slice(i, i + size));
    return out;
  }
  return [value];
}

function unpack(value: unknown): unknown {
  const p = value as Packed;
  if (!p || typeof p !== "object" || !(p.offsets instanceof Int32Array) || !p.packed) return value;
  const views = Array.from(
    { length: p.offsets.length - 1 },
    (_, i) => p.data.subarray(p.offsets[i], p.offsets[i + 1]),
  );
  return p.packed === "map" ? new Map(p.keys.map((k, i) => [k, views[i]])) : views;
}

interface Header {
  format: number;
  fingerprint: string;
  ranker_version: string;
  parts: { name: string; bytes: number }[];
  sha256: string;
}

const SOURCES = [
  new URL("./", import.meta.url),
  new URL("../../text/", import.meta.url),
];

let fingerprint: Promise<string | null> | null = null;

/** The fingerprint of this engine's code (null when its source cannot be read). */
export function engineFingerprint(): Promise<string | null> {
  fingerprint ??= computeFingerprint();
  return fingerprint;
}

async function computeFingerprint(): Promise<string | null> {
  try {
    const parts: string[] = [RANKER_VERSION, Deno.version.v8];
    for (const dir of SOURCES) {
      const names: string[] = [];
      for await (const entry of Deno.readDir(dir)) {
        if (entry.isFile && entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
          names.push(entry.name);
        }
      }
      for (const name of names.sort()) {
        parts.push(name, await Deno.readTextFile(new URL(name, dir)));
      }
    }
    return await sha256Hex(new TextEncoder().encode(parts.join("\0")));
  } catch {
    return null;
  }
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Writes the index's snapshot into an artifact folder (a temporary file, then a rename). */
export async function writeSnapshot(
  dir: string,
  index: OccupationIndex,
  /** Piece sizes (tests make them small so that every part comes in pieces). */
  sizes: typeof PIECES = PIECES,
): Promise<number> {
  const print = await engineFingerprint();
  if (print === null) throw new Error("the engine's source cannot be read: no fingerprint");
  const parts = index.snapshot().flatMap(([name, value]) =>
    pieces(value, sizes).map((piece) => ({ name, bytes: serialize(pack(piece)) }))
  );
  const total = parts.reduce((n, p) => n + p.bytes.length, 0);
  const payload = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    payload.set(part.bytes, at);
    at += part.bytes.length;
  }
  const header: Header = {
    format: FORMAT,
    fingerprint: print,
    ranker_version: RANKER_VERSION,
    parts: parts.map((p) => ({ name: p.name, bytes: p.bytes.length })),
    sha256: await sha256Hex(payload),
  };
  const head = new TextEncoder().encode(JSON.stringify(header) + "\n");
  const path = join(dir, SNAPSHOT_FILE);
  const temp = `${path}.tmp`;
  const all = new Uint8Array(head.length + payload.length);
  all.set(head);
  all.set(payload, head.length);
  await Deno.writeFile(temp, all);
  await Deno.rename(temp, path);
  return head.length + payload.length;
}

/** Why a snapshot was not used (null when it was). */
export type SnapshotOutcome =
  | { index: OccupationIndex; reason: null }
  | { index: null; reason: string };

/**
 * Loads the index from an artifact folder's snapshot, pausing between parts (as buildAsync does)
 * so a server keeps answering; or says why it could not (absent, another engine's, damaged).
 */
export async function readSnapshot(
  dir: string,
  options: { sliceMs?: number; pause?: () => Promise<void> } = {},
): Promise<SnapshotOutcome> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(join(dir, SNAPSHOT_FILE));
  } catch {
    return { index: null, reason: "no snapshot" };
  }
  const newline = bytes.indexOf(10);
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, newline)));
  } catch {
    return { index: null, reason: "unreadable snapshot header" };
  }
  if (header.format !== FORMAT) return { index: null, reason: `format ${header.format}` };
  const print = await engineFingerprint();
  if (print === null || header.fingerprint !== print) {
    return { index: null, reason: "written by other engine code" };
  }
  const payload = bytes.subarray(newline + 1);
  const sliceMs = options.sliceMs ?? 8;
  const pause = options.pause ?? (() => new Promise<void>((r) => setTimeout(r, 0)));
  // Hashed a few megabytes at a time, pausing between them (40 MB at once held the loop 30 ms).
  const hash = createHash("sha256");
  for (let at = 0; at < payload.length; at += HASH_CHUNK) {
    hash.update(payload.subarray(at, at + HASH_CHUNK));
    await pause();
  }
  if (hash.digest("hex") !== header.sha256) {
    return { index: null, reason: "snapshot checksum mismatch" };
  }
  function* parts(): Generator<[string, unknown]> {
    let at = 0;
    for (const { name, bytes: length } of header.parts) {
      yield [name, unpack(deserialize(payload.subarray(at, at + length)))];
      at += length;
    }
  }
  try {
    const steps = OccupationIndex.fromSnapshot(parts());
    let sliceStart = performance.now();
    for (;;) {
      const step = steps.next();
      if (step.done) return { index: step.value, reason: null };
      if (performance.now() - sliceStart < sliceMs) continue;
      await pause();
      sliceStart = performance.now();
    }
  } catch (error) {
    return { index: null, reason: `damaged snapshot: ${String(error)}` };
  }
}
