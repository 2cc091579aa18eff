/** Unit tests of artifact publication: pointer, publish, listing and pruning of versions. */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  listVersions,
  POINTER_FILE,
  pruneVersions,
  publishVersion,
  readPointer,
  writePointer,
} from "./publish.ts";
import { listNames, withTempDir } from "../tests/fs.ts";

/** A published version folder whose modification time is `ageSeconds` in the past. */
async function makeVersion(artifactDir: string, name: string, ageSeconds: number) {
  const dir = join(artifactDir, name);
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "manifest.json"), "{}\n");
  const when = new Date(Date.now() - ageSeconds * 1000);
  await Deno.utime(dir, when, when);
}

Deno.test("readPointer: missing, garbage and valid pointers", async () => {
  await withTempDir("publish-test-", async (dir) => {
    assert.equal(await readPointer(join(dir, "no-such-artifact")), null);
    assert.equal(await readPointer(dir), null);
    for (const garbage of ["", "\n", "not a version\n", "../../etc/passwd", "29.3-abc/def"]) {
      await Deno.writeTextFile(join(dir, POINTER_FILE), garbage);
      assert.equal(await readPointer(dir), null, JSON.stringify(garbage));
    }
    await Deno.writeTextFile(join(dir, POINTER_FILE), "  29.3-0123456789ab\r\n");
    assert.equal(await readPointer(dir), "29.3-0123456789ab");

    await writePointer(dir, "29.3-ba9876543210");
    assert.equal(await readPointer(dir), "29.3-ba9876543210");
    assert.deepEqual(await listNames(dir), [POINTER_FILE]); // no temporary file left
  });
});

Deno.test("publishVersion: renames into place, reuses an existing version", async () => {
  await withTempDir("publish-test-", async (artifactDir) => {
    const first = await Deno.makeTempDir({ dir: artifactDir, prefix: ".build-" });
    await Deno.writeTextFile(join(first, "manifest.json"), '{"n":1}\n');
    const a = await publishVersion(artifactDir, first, "v-a");
    assert.deepEqual(a, { dir: join(artifactDir, "v-a"), reused: false });
    assert.equal(await Deno.readTextFile(join(artifactDir, "v-a", "manifest.json")), '{"n":1}\n');
    assert.equal(await readPointer(artifactDir), "v-a");

    await makeVersion(artifactDir, "v-b", 5);
    await Deno.utime(join(artifactDir, "v-a"), new Date(0), new Date(0));
    assert.deepEqual((await listVersions(artifactDir)).map((v) => v.name), ["v-b", "v-a"]);

    // the same version again: the new copy is dropped, the old one kept and made newest; only
    // its derived *.snapshot files (from the code that built them) replace the published ones
    await Deno.writeTextFile(join(artifactDir, "v-a", "engine.snapshot"), "old code");
    const second = await Deno.makeTempDir({ dir: artifactDir, prefix: ".build-" });
    await Deno.writeTextFile(join(second, "manifest.json"), '{"n":2}\n');
    await Deno.writeTextFile(join(second, "engine.snapshot"), "new code");
    const again = await publishVersion(artifactDir, second, "v-a");
    assert.deepEqual(again, { dir: join(artifactDir, "v-a"), reused: true });
    assert.equal(await Deno.readTextFile(join(artifactDir, "v-a", "manifest.json")), '{"n":1}\n');
    assert.equal(
      await Deno.readTextFile(join(artifactDir, "v-a", "engine.snapshot")),
      "new code",
    );
    assert.equal(await readPointer(artifactDir), "v-a");
    assert.deepEqual(await listNames(artifactDir), [POINTER_FILE, "v-a", "v-b"]);
    assert.deepEqual((await listVersions(artifactDir)).map((v) => v.name), ["v-a", "v-b"]);
  });
});

Deno.test("listVersions: only folders with a manifest, newest first", async () => {
  await withTempDir("publish-test-", async (artifactDir) => {
    assert.deepEqual(await listVersions(join(artifactDir, "missing")), []);
    await makeVersion(artifactDir, "old", 300);
    await makeVersion(artifactDir, "new", 10);
    await makeVersion(artifactDir, "mid", 100);
    await makeVersion(artifactDir, ".build-x1", 0);
    await Deno.mkdir(join(artifactDir, "no-manifest"));
    await Deno.writeTextFile(join(artifactDir, "stray-file"), "x");
    assert.deepEqual((await listVersions(artifactDir)).map((v) => v.name), ["new", "mid", "old"]);
  });
});

Deno.test("pruneVersions keeps the newest and never the current version", async () => {
  await withTempDir("publish-test-", async (artifactDir) => {
    await makeVersion(artifactDir, "v1", 400);
    await makeVersion(artifactDir, "v2", 300);
    await makeVersion(artifactDir, "v3", 200);
    await makeVersion(artifactDir, "v4", 100);
    await makeVersion(artifactDir, ".build-inprogress", 500); // a build still running
    await Deno.mkdir(join(artifactDir, "not-a-version"));
    await writePointer(artifactDir, "v1"); // e.g. rolled back to the oldest

    assert.deepEqual((await pruneVersions(artifactDir, 2)).sort(), ["v2"]);
    assert.deepEqual(await listNames(artifactDir), [
      ".build-inprogress",
      POINTER_FILE,
      "not-a-version",
      "v1",
      "v3",
      "v4",
    ]);

    assert.deepEqual(await pruneVersions(artifactDir, 1), ["v3"]);
    assert.deepEqual(await listNames(artifactDir), [
      ".build-inprogress",
      POINTER_FILE,
      "not-a-version",
      "v1",
      "v4",
    ]);
    assert.equal(await readPointer(artifactDir), "v1");

    // once current is the newest, keep 1 leaves only it
    await writePointer(artifactDir, "v4");
    assert.deepEqual(await pruneVersions(artifactDir, 1), ["v1"]);
    assert.deepEqual(await pruneVersions(artifactDir, 1), []);
    assert.deepEqual(await listNames(artifactDir), [
      ".build-inprogress",
      POINTER_FILE,
      "not-a-version",
      "v4",
    ]);
  });
});

Deno.test("pruneVersions without a pointer keeps the newest; missing folder prunes nothing", async () => {
  await withTempDir("publish-test-", async (artifactDir) => {
    assert.deepEqual(await pruneVersions(join(artifactDir, "missing"), 1), []);
    await makeVersion(artifactDir, "a", 30);
    await makeVersion(artifactDir, "b", 20);
    await makeVersion(artifactDir, "c", 10);
    await Deno.writeTextFile(join(artifactDir, POINTER_FILE), "garbage pointer!\n");
    assert.deepEqual(await pruneVersions(artifactDir, 1), ["b", "a"]);
    assert.deepEqual(await listNames(artifactDir), ["c", POINTER_FILE]);
  });
});
