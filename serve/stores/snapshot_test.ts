import assert from "node:assert/strict";
import { join } from "node:path";
import { ABANDONED_MS, readSnapshotFile, writeBack, writeParts } from "./snapshot.ts";

const FINGERPRINT = "test fingerprint";

/** Runs `body` with a temporary folder, removed afterwards. */
async function withTempDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The names in a folder, sorted. */
async function namesIn(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

/** Every typed array in a value (maps, lists and objects, at any depth). */
function typedArrays(value: unknown, out: ArrayBufferView[] = []): ArrayBufferView[] {
  if (ArrayBuffer.isView(value)) out.push(value);
  else if (value instanceof Map) { for (const item of value.values()) typedArrays(item, out); }
  else if (Array.isArray(value)) { for (const item of value) typedArrays(item, out); }
  else if (value !== null && typeof value === "object") {
    for (const item of Object.values(value)) typedArrays(item, out);
  }
  return out;
}

Deno.test("a snapshot's parts read back equal, and no typed array keeps the file's bytes alive", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "test.snapshot");
    // Shapes of the ranking index's parts: a map of postings (packed into one buffer), a
    // top-level matrix, an object holding a matrix beside many strings, a list of strings.
    const postings = new Map<string, Int32Array>();
    for (let i = 0; i < 300; i++) {
      postings.set(`word${i}`, Int32Array.from({ length: 1 + (i % 7) }, (_, j) => i * 10 + j));
    }
    const matrix = Float32Array.from({ length: 4_000 }, (_, i) => i / 7);
    const vectors = {
      dims: 4,
      words: Array.from({ length: 2_000 }, (_, i) => `term number ${i}`),
      data: Float32Array.from({ length: 8_000 }, (_, i) => Math.sin(i)),
      weights: Float64Array.from({ length: 512 }, (_, i) => i * 0.5),
    };
    const titles = Array.from({ length: 3_000 }, (_, i) => `Title ${i}`);
    const named: [string, unknown][] = [
      ["postings", postings],
      ["matrix", matrix],
      ["vectors", vectors],
      ["titles", titles],
    ];
    const size = await writeParts(path, FINGERPRINT, named);

    const read = await readSnapshotFile(path, FINGERPRINT);
    assert.equal(read.reason, null);
    const parts = read.parts!;
    assert.deepEqual(parts.get("postings"), postings);
    assert.deepEqual(parts.get("matrix"), matrix);
    assert.deepEqual(parts.get("vectors"), vectors);
    assert.deepEqual(parts.get("titles"), titles);

    // node:v8's deserialize hands back an aligned typed array as a view on the bytes it read:
    // here the whole file. Each must hold only its own data (the postings share one packed
    // buffer, exactly their size).
    const packedBytes = [...postings.values()].reduce((n, a) => n + a.byteLength, 0);
    for (const view of typedArrays(parts.get("postings"))) {
      assert.equal(view.buffer.byteLength, packedBytes);
    }
    const rest = typedArrays([parts.get("matrix"), parts.get("vectors")]);
    assert.equal(rest.length, 3);
    for (const view of rest) {
      assert.equal(view.buffer.byteLength, view.byteLength);
      assert.ok(view.buffer.byteLength < size);
    }
  });
});

Deno.test("a typed array that is nearly all of its part stays a view on the bytes read", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "test.snapshot");
    const bytes = Uint8Array.from({ length: 200_000 }, (_, i) => i % 251);
    const small = Int32Array.from({ length: 50 }, (_, i) => i);
    const size = await writeParts(path, FINGERPRINT, [["small", small], ["bytes", bytes]]);
    const read = await readSnapshotFile(path, FINGERPRINT);
    const got = read.parts!.get("bytes") as Uint8Array;
    assert.deepEqual(got, bytes);
    // The part's bytes as read (with their few bytes of serialisation header), not a copy.
    assert.ok(got.buffer.byteLength > got.byteLength && got.buffer.byteLength < size);
    const other = read.parts!.get("small") as Int32Array;
    assert.deepEqual(other, small);
    assert.equal(other.buffer.byteLength, other.byteLength, "a small part is still copied out");
  });
});

Deno.test("a snapshot of other code, or a damaged one, is refused with its reason", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "test.snapshot");
    await writeParts(path, FINGERPRINT, [["matrix", new Float64Array([1, 2, 3])]]);
    assert.equal((await readSnapshotFile(path, "another")).reason, "written by other code");
    assert.equal((await readSnapshotFile(join(dir, "absent"), FINGERPRINT)).reason, "no snapshot");
    const bytes = await Deno.readFile(path);
    bytes[bytes.length - 1] ^= 0xff;
    await Deno.writeFile(path, bytes);
    assert.equal((await readSnapshotFile(path, FINGERPRINT)).reason, "snapshot checksum mismatch");
  });
});

Deno.test("a snapshot is written in slices that pause, through a file of its own, and two writers at once leave one whole file", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "test.snapshot");
    const big = new Map<string, Int32Array>();
    for (let i = 0; i < 5_000; i++) big.set(`w${i}`, Int32Array.of(i, i + 1));
    const named: [string, unknown][] = [["big", big], [
      "list",
      Array.from({ length: 900 }, String),
    ]];
    const sizes = { map: 100, list: 50, strings: 100 };
    let pauses = 0;
    const pause = () => new Promise<void>((resolve) => (pauses++, setTimeout(resolve, 0)));
    // 50 pieces of the map and 9 of the list, a pause after each.
    // Two writers of the same path at once (two servers writing a snapshot back): each writes a
    // file of its own and renames it, so the file read is one of them, whole.
    const [a, b] = await Promise.all([
      writeParts(path, FINGERPRINT, named, sizes, { sliceMs: 0, pause }),
      writeParts(path, FINGERPRINT, named, sizes, { sliceMs: 0, pause }),
    ]);
    assert.equal(a, b);
    assert.ok(pauses >= 2 * 59, `the writes paused ${pauses} times`);
    assert.equal((await Deno.stat(path)).size, a);
    const read = await readSnapshotFile(path, FINGERPRINT);
    assert.equal(read.reason, null);
    assert.deepEqual(read.parts!.get("big"), big);
    assert.deepEqual(await namesIn(dir), ["test.snapshot"], "no temporary file is left");
  });
});

Deno.test("a snapshot that cannot be written back says why, and leaves no temporary file", async () => {
  await withTempDir(async (dir) => {
    const named: [string, unknown][] = [["list", ["a", "b"]]];
    // A folder that is not there (as a read-only mount refuses the same way): the data is served
    // anyway, so this is a note for the log, not an error.
    const missing = await writeBack(() =>
      writeParts(join(dir, "gone", "x.snapshot"), FINGERPRINT, named)
    );
    assert.match(missing, /^not written back: .*No such file/);
    // The temporary file is written but cannot be renamed over a folder of that name.
    const taken = join(dir, "taken.snapshot");
    await Deno.mkdir(join(taken, "inside"), { recursive: true });
    assert.match(await writeBack(() => writeParts(taken, FINGERPRINT, named)), /^not written back/);
    assert.deepEqual(await namesIn(dir), ["taken.snapshot"]);
    assert.equal(
      await writeBack(() => writeParts(join(dir, "ok.snapshot"), FINGERPRINT, named)),
      "written back",
    );
  });
});

Deno.test("a write removes the temporary files that earlier writes of the same snapshot abandoned, and only those", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "x.snapshot");
    const old = new Date(Date.now() - ABANDONED_MS - 60_000);
    const abandoned = join(dir, "x.snapshot.123.abc.tmp");
    const recent = join(dir, "x.snapshot.456.def.tmp"); // another writer's, still writing
    const other = join(dir, "y.snapshot.123.abc.tmp"); // another snapshot's
    for (const file of [abandoned, recent, other]) await Deno.writeTextFile(file, "partial");
    await Deno.utime(abandoned, old, old);
    await Deno.utime(other, old, old);
    await writeParts(path, FINGERPRINT, [["list", ["a"]]]);
    assert.deepEqual(await namesIn(dir), [
      "x.snapshot",
      "x.snapshot.456.def.tmp",
      "y.snapshot.123.abc.tmp",
    ]);
  });
});
