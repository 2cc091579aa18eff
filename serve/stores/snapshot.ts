/**
 * Snapshots of derived in-memory data, written by a build beside an artifact's data file and read
 * by a server instead of recomputing the data (the taxonomy's ranking index and its summary and
 * profile bodies, the evidence artifact's loaded tables). Derived data: not under the manifest's content hash; a missing,
 * stale or damaged snapshot only means the server computes the data itself.
 *
 * Layout: one JSON header line (format, fingerprint, the parts' names and byte lengths, the
 * SHA-256 of everything after the header), then each part as node:v8 serialised bytes. A large
 * map or list is written as several parts of the same name (readers join them in order with
 * {@linkcode joinPiece}), and maps and lists of Int32Arrays are packed into one buffer: many
 * small typed arrays, or one part of 50,000 entries, deserialise in tens of milliseconds, a stall
 * for a server loading a new version while it answers.
 *
 * The fingerprint is a SHA-256 of a tag (a version), the V8 version, this module's source and the
 * source text of the folders whose code computes the data, so any change to that code, even
 * without a version bump, makes old snapshots stale.
 */
import { createHash } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { deserialize, serialize } from "node:v8";

const FORMAT = 3;
/**
 * Bytes of a snapshot hashed at a time, a pause between two: 1 MiB is about 3-4 ms of the request
 * thread on this host (4 MiB, until 2026-11-27, held it 12-15 ms at each of a swap's chunks).
 */
const HASH_CHUNK = 1 << 20;

/** Entries per piece of a large map, and items per piece of a large list (of strings). */
export const PIECES = { map: 8_000, list: 200, strings: 16_000 };

interface Header {
  format: number;
  fingerprint: string;
  parts: { name: string; bytes: number }[];
  sha256: string;
}

interface Packed {
  packed: "map" | "list";
  keys: string[];
  offsets: Int32Array;
  data: Int32Array;
}

/**
 * A SHA-256 of the tag, the V8 version, this module's source and the source of every non-test
 * `.ts` file in the folders (null when a folder cannot be read, e.g. in a compiled binary: then no
 * snapshot is used).
 */
export async function sourceFingerprint(tag: string, folders: URL[]): Promise<string | null> {
  try {
    // This module's own source too: a change to how parts are written is a change of format.
    const parts: string[] = [
      tag,
      Deno.version.v8,
      await Deno.readTextFile(new URL(import.meta.url)),
    ];
    for (const dir of folders) {
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
    return createHash("sha256").update(parts.join("\0")).digest("hex");
  } catch {
    return null;
  }
}

/**
 * {@linkcode sourceFingerprint} of `tag` and `folders`, computed on the first call and then kept:
 * the code of a running process does not change.
 */
export function fingerprintOnce(tag: string, folders: URL[]): () => Promise<string | null> {
  let print: Promise<string | null> | null = null;
  return () => (print ??= sourceFingerprint(tag, folders));
}

/**
 * A function that gives back, for each string, the first equal string it was given. A snapshot
 * (like a DuckDB read) gives every occurrence of a repeated value a copy of its own; a loader folds
 * them back into one with this.
 */
export function interner(): (text: string) => string {
  const kept = new Map<string, string>();
  return (text) => {
    const first = kept.get(text);
    if (first !== undefined) return first;
    kept.set(text, text);
    return text;
  };
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

function unpack(value: unknown): unknown {
  const p = value as Packed;
  if (!p || typeof p !== "object" || !(p.offsets instanceof Int32Array) || !p.packed) return value;
  const views = Array.from(
    { length: p.offsets.length - 1 },
    (_, i) => p.data.subarray(p.offsets[i], p.offsets[i + 1]),
  );
  return p.packed === "map" ? new Map(p.keys.map((k, i) => [k, views[i]])) : views;
}

/**
 * The value with every typed array in it (in maps, lists and objects, at any depth) holding a
 * buffer of its own. node:v8's deserialize returns an aligned typed array as a view on the bytes
 * it read: when those were the whole snapshot file, one such view kept the file's 40 MB alive for
 * as long as the index it belonged to (the ranking index's stem postings did, measured in the
 * worker); now they are the part's bytes, which a small array must not hold either. A view that
 * is nearly all of the bytes read (at least 9/10: the answers snapshot's bodies) stays a view: a
 * copy would only add its size to the peak while the bytes wait for a collection.
 */
function owned(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) {
    if (value.byteLength * 10 >= value.buffer.byteLength * 9 || value instanceof DataView) {
      return value;
    }
    return (value as Int32Array).slice();
  }
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Map) {
    for (const [key, item] of value) {
      const own = owned(item);
      if (own !== item) value.set(key, own);
    }
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = owned(value[i]);
  } else {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = owned(record[key]);
  }
  return value;
}

/** A large map or list as pieces that each deserialise in a few milliseconds. */
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

/** Adds one piece of a named part to what was read so far (maps and lists join in order). */
function joinPiece(byName: Map<string, unknown>, name: string, value: unknown): void {
  const earlier = byName.get(name);
  if (earlier instanceof Map && value instanceof Map) {
    for (const [k, v] of value) earlier.set(k, v);
  } else if (Array.isArray(earlier) && Array.isArray(value)) {
    for (const v of value) earlier.push(v);
  } else {
    byName.set(name, value);
  }
}

/**
 * Writes named parts as a snapshot file; returns its size. The file is written under a name of its
 * own (so two processes writing the same snapshot at once cannot mix their bytes) and then renamed
 * into place, so a reader sees the old file or the new one, whole. Serialising and hashing pause
 * whenever a slice of work passed `sliceMs` (8 ms by default), as reads do: a server that writes a
 * snapshot back (its engine code differs from the build's) keeps answering meanwhile. A build does
 * not pause ({@linkcode noPause}, the default).
 */
export async function writeParts(
  path: string,
  fingerprint: string,
  named: [string, unknown][],
  sizes: typeof PIECES = PIECES,
  options: SliceOptions = {},
): Promise<number> {
  const pause = options.pause ?? noPause;
  const sliceMs = options.sliceMs ?? 8;
  let sliceStart = performance.now();
  const slice = async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await pause();
    sliceStart = performance.now();
  };
  const parts: { name: string; bytes: Uint8Array }[] = [];
  const hash = createHash("sha256");
  for (const [name, value] of named) {
    for (const piece of pieces(value, sizes)) {
      const bytes = serialize(pack(piece));
      await slice();
      // Hashed a chunk at a time, as reads do: a part can be 10 MB (30-40 ms of SHA-256).
      for (let at = 0; at < bytes.length; at += HASH_CHUNK) {
        hash.update(bytes.subarray(at, at + HASH_CHUNK));
        await slice();
      }
      parts.push({ name, bytes });
    }
  }
  const header: Header = {
    format: FORMAT,
    fingerprint,
    parts: parts.map((p) => ({ name: p.name, bytes: p.bytes.length })),
    sha256: hash.digest("hex"),
  };
  const head = new TextEncoder().encode(JSON.stringify(header) + "\n");
  await removeAbandoned(path);
  const temp = `${path}.${Deno.pid}.${crypto.randomUUID()}.tmp`;
  try {
    using file = await Deno.open(temp, { write: true, createNew: true });
    let size = 0;
    for (const bytes of [head, ...parts.map((p) => p.bytes)]) {
      for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
      size += bytes.length;
    }
    await Deno.rename(temp, path);
    return size;
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * Writes a snapshot back into an artifact folder after a server had to compute its data (the
 * build's snapshot was missing, damaged or another code's), so that only the first load after an
 * upgrade pays for it; says how that went, for the load's log line. A folder the server may not
 * write (a read-only mount) is not an error: the data was computed and is served, and the next
 * load computes it again.
 */
export async function writeBack(write: () => Promise<number>): Promise<string> {
  try {
    await write();
    return "written back";
  } catch (error) {
    return `not written back: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** A temporary snapshot file older than this was left by a write that never finished. */
export const ABANDONED_MS = 10 * 60_000;

/**
 * Removes the temporary files of earlier writes of this snapshot that never finished (a process
 * stopped mid-write; a write takes seconds), so they do not pile up beside the artifact.
 */
async function removeAbandoned(path: string): Promise<void> {
  const prefix = `${basename(path)}.`;
  const before = Date.now() - ABANDONED_MS;
  try {
    for await (const entry of Deno.readDir(dirname(path))) {
      if (!entry.isFile || !entry.name.startsWith(prefix) || !entry.name.endsWith(".tmp")) continue;
      const file = join(dirname(path), entry.name);
      const modified = (await Deno.stat(file).catch(() => null))?.mtime?.getTime();
      if (modified !== undefined && modified < before) await Deno.remove(file).catch(() => {});
    }
  } catch {
    // An unreadable folder: the write below says why.
  }
}

/** A snapshot's parts by name (pieces joined), or why it cannot be used. */
export type SnapshotRead =
  | { parts: Map<string, unknown>; reason: null }
  | { parts: null; reason: string };

/**
 * Reads a snapshot: checks its format and fingerprint, then its checksum (reading and hashing a
 * few megabytes at a time with `pause` between), then reads and deserialises its parts one at a
 * time, pausing whenever a slice of work passed `sliceMs` (8 ms by default), and joins their
 * pieces. The file is never held whole: each part's bytes are read on their own, so loading the
 * ranking index (40.9 MB for 29.3, its largest part 12.4 MB) no longer adds the whole file to the
 * peak. One handle serves both passes, so a build that replaces the file meanwhile (a rename)
 * cannot mix two files. A part that does not deserialise makes the whole snapshot unusable, with
 * the reason.
 */
export async function readSnapshotFile(
  path: string,
  fingerprint: string | null,
  options: SliceOptions = {},
): Promise<SnapshotRead> {
  const pause = options.pause ?? timerPause;
  const sliceMs = options.sliceMs ?? 8;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path);
  } catch {
    return { parts: null, reason: "no snapshot" };
  }
  using _ = file;
  const size = (await file.stat()).size;
  const first = await readAt(file, 0, new Uint8Array(Math.min(size, HASH_CHUNK)));
  const newline = first.indexOf(10);
  let header: Header;
  try {
    if (newline < 0) throw new Error("no header line");
    header = JSON.parse(new TextDecoder().decode(first.subarray(0, newline)));
  } catch {
    return { parts: null, reason: "unreadable snapshot header" };
  }
  if (header.format !== FORMAT) return { parts: null, reason: `format ${header.format}` };
  if (fingerprint === null || header.fingerprint !== fingerprint) {
    return { parts: null, reason: "written by other code" };
  }
  const payloadAt = newline + 1;
  const hash = createHash("sha256");
  const chunk = new Uint8Array(HASH_CHUNK);
  for (let at = payloadAt; at < size; at += HASH_CHUNK) {
    const read = await readAt(file, at, chunk.subarray(0, Math.min(HASH_CHUNK, size - at)));
    hash.update(read);
    await pause();
  }
  const listed = header.parts.reduce((n, p) => n + p.bytes, 0);
  if (hash.digest("hex") !== header.sha256 || payloadAt + listed !== size) {
    return { parts: null, reason: "snapshot checksum mismatch" };
  }
  const byName = new Map<string, unknown>();
  let at = payloadAt;
  let sliceStart = performance.now();
  try {
    for (const { name, bytes } of header.parts) {
      const part = await readAt(file, at, new Uint8Array(bytes));
      at += bytes;
      joinPiece(byName, name, unpack(owned(deserialize(part))));
      if (performance.now() - sliceStart >= sliceMs) {
        await pause();
        sliceStart = performance.now();
      }
    }
  } catch (error) {
    return { parts: null, reason: `damaged snapshot: ${String(error)}` };
  }
  return { parts: byName, reason: null };
}

/**
 * Fills `into` from the file at `offset` (short only at the end of the file). The buffer is the
 * caller's own: an awaited `Deno.readFile`'s stayed reachable after its caller dropped it
 * (measured: a 40 MB snapshot held until the next read).
 */
async function readAt(file: Deno.FsFile, offset: number, into: Uint8Array): Promise<Uint8Array> {
  await file.seek(offset, Deno.SeekMode.Start);
  let filled = 0;
  while (filled < into.length) {
    const n = await file.read(into.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return into.subarray(0, filled);
}

/** Runs a generator to its end, pausing whenever a slice of work passed `sliceMs`. */
export async function runSliced<T>(
  steps: Generator<unknown, T, void>,
  sliceMs: number,
  pause: () => Promise<void>,
): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart < sliceMs) continue;
    await pause();
    sliceStart = performance.now();
  }
}

/** What a long load awaits between slices of its work. */
export type Pause = () => Promise<void>;

/**
 * How a snapshot read or write shares the thread: it pauses (`pause`) whenever a slice of work
 * passed `sliceMs`.
 */
export interface SliceOptions {
  sliceMs?: number;
  pause?: Pause;
}

/** A pause on a timer: lets waiting requests and timers run. */
export const timerPause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * No pause, for loads that no request waits on (a server's start, before it listens): a timer's
 * pause costs about 2-4 ms, so pausing every 8 ms made those loads 30-40% longer.
 */
export const noPause = () => Promise.resolve();
