/**
 * Build inputs: resolveRelease turns a folder, a release zip or a URL into a release folder.
 * Zips are made here from fixtures/onet-sample with the official layout (db_29_3_text/...);
 * URLs are served from a loopback server started by the test itself.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { zipSync } from "fflate";
import { allowedUrl, resolveRelease } from "../build/input.ts";
import { buildTaxonomy } from "../build/pipeline.ts";
import { silentProgress } from "../build/progress.ts";
import { listNames, withTempDir } from "./fs.ts";

const FIXTURE = fileURLToPath(new URL("../fixtures/onet-sample", import.meta.url));

/** The fixture's files by name. */
async function fixtureFiles(): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  for await (const entry of Deno.readDir(FIXTURE)) {
    if (entry.isFile) files.set(entry.name, await Deno.readFile(join(FIXTURE, entry.name)));
  }
  return files;
}

/** A zip of the fixture laid out like the official release zip. */
async function fixtureZip(): Promise<Uint8Array> {
  const entries: Record<string, Uint8Array> = {};
  for (const [name, bytes] of await fixtureFiles()) entries[`db_29_3_text/${name}`] = bytes;
  entries["db_29_3_text/excel_for_oversized/README.pdf"] = new Uint8Array([37, 80, 68, 70]);
  return zipSync(entries);
}

/** Asserts that a resolved folder holds exactly the fixture's files, byte for byte. */
async function assertSameFiles(dir: string) {
  const expected = await fixtureFiles();
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) if (entry.isFile) names.push(entry.name);
  assert.deepEqual(names.sort(), [...expected.keys()].sort());
  for (const [name, bytes] of expected) {
    assert.deepEqual(await Deno.readFile(join(dir, name)), bytes, name);
  }
}

Deno.test("a folder resolves to itself or to the release folder inside it", async () => {
  assert.equal(await resolveRelease(FIXTURE, "/nonexistent-cache", silentProgress), FIXTURE);
  await withTempDir("build-inputs-test-", async (tmp) => {
    const nested = join(tmp, "download", "db_29_3_text");
    await Deno.mkdir(nested, { recursive: true });
    await Deno.copyFile(
      join(FIXTURE, "Occupation Data.txt"),
      join(nested, "Occupation Data.txt"),
    );
    assert.equal(await resolveRelease(join(tmp, "download"), tmp, silentProgress), nested);
    await assert.rejects(
      resolveRelease(tmp, join(tmp, "cache"), silentProgress),
      /no "Occupation Data\.txt" found/,
    );
  });
});

Deno.test("a release zip is extracted into the cache and builds like the folder", async () => {
  await withTempDir("build-inputs-test-", async (tmp) => {
    const zipPath = join(tmp, "db_29_3_text.zip");
    await Deno.writeFile(zipPath, await fixtureZip());
    const cacheDir = join(tmp, "cache");

    const dir = await resolveRelease(zipPath, cacheDir, silentProgress);
    assert.ok(dir.startsWith(join(cacheDir, "onet") + "/"), dir);
    assert.ok(dir.endsWith("/db_29_3_text"), dir);
    await assertSameFiles(dir);
    // only .txt entries are extracted
    assert.deepEqual(await listNames(join(dir, "excel_for_oversized")), []);

    // the second resolve reuses the extraction
    const marker = join(dir, "marker.txt");
    await Deno.writeTextFile(marker, "kept");
    assert.equal(await resolveRelease(zipPath, cacheDir, silentProgress), dir);
    assert.equal(await Deno.readTextFile(marker), "kept");
    await Deno.remove(marker);
    assert.equal((await listNames(join(cacheDir, "onet"))).length, 1);

    const fromZip = await buildTaxonomy(dir, join(tmp, "artifacts-zip"));
    const fromFolder = await buildTaxonomy(FIXTURE, join(tmp, "artifacts-folder"));
    assert.equal(fromZip.manifest.content_hash, fromFolder.manifest.content_hash);
    assert.equal(fromZip.version, fromFolder.version);
    assert.deepEqual(fromZip.manifest.inputs, fromFolder.manifest.inputs);
  });
});

Deno.test("an http URL on loopback is downloaded once into the cache", async () => {
  await withTempDir("build-inputs-test-", async (tmp) => {
    const zip = await fixtureZip();
    const requests: string[] = [];
    const server = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen() {} },
      (request) => {
        const path = new URL(request.url).pathname;
        requests.push(path);
        if (path !== "/dl/db_29_3_text.zip") return new Response("not found", { status: 404 });
        return new Response(zip as Uint8Array<ArrayBuffer>, {
          headers: { "content-type": "application/zip" },
        });
      },
    );
    try {
      const base = `http://127.0.0.1:${server.addr.port}`;
      const cacheDir = join(tmp, "cache");

      const dir = await resolveRelease(`${base}/dl/db_29_3_text.zip`, cacheDir, silentProgress);
      assert.ok(dir.startsWith(cacheDir + "/"), dir);
      await assertSameFiles(dir);
      const downloads = await listNames(join(cacheDir, "downloads"));
      assert.equal(downloads.length, 1);
      assert.match(downloads[0], /^[0-9a-f]{16}-db_29_3_text\.zip$/);
      assert.deepEqual(
        await Deno.readFile(join(cacheDir, "downloads", downloads[0])),
        zip,
      );

      const again = await resolveRelease(`${base}/dl/db_29_3_text.zip`, cacheDir, silentProgress);
      assert.equal(again, dir);
      assert.deepEqual(requests, ["/dl/db_29_3_text.zip"]);

      // a failed download names the status and leaves nothing in the cache
      await assert.rejects(
        resolveRelease(`${base}/dl/db_29_9_text.zip`, cacheDir, silentProgress),
        /download failed: HTTP 404/,
      );
      assert.deepEqual(await listNames(join(cacheDir, "downloads")), downloads);
      assert.equal(requests.length, 2);
    } finally {
      await server.shutdown();
    }
  });
});

Deno.test("redirects are re-checked and compressed responses are measured correctly", async () => {
  await withTempDir("build-inputs-test-", async (tmp) => {
    const zip = await fixtureZip();
    const server = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen() {} },
      (request) => {
        const path = new URL(request.url).pathname;
        if (path === "/away") {
          return Response.redirect("http://example.com/db_29_3_text.zip", 302);
        }
        if (path === "/moved") return Response.redirect(new URL("/gz/db.zip", request.url), 301);
        if (path === "/gz/db.zip") {
          // A server that compresses whatever the client asked for: Content-Length is the
          // compressed size while fetch hands over the decompressed bytes.
          const gz = new Blob([zip as Uint8Array<ArrayBuffer>]).stream()
            .pipeThrough(new CompressionStream("gzip"));
          return new Response(gz, {
            headers: { "content-type": "application/zip", "content-encoding": "gzip" },
          });
        }
        return new Response("not found", { status: 404 });
      },
    );
    try {
      const base = `http://127.0.0.1:${server.addr.port}`;
      const cacheDir = join(tmp, "cache");
      await assert.rejects(
        resolveRelease(`${base}/away`, cacheDir, silentProgress),
        /redirected to a URL that is not allowed/,
      );
      const dir = await resolveRelease(`${base}/moved`, cacheDir, silentProgress);
      await assertSameFiles(dir);
    } finally {
      await server.shutdown();
    }
  });
});

Deno.test("a zip without any .txt file is refused clearly", async () => {
  await withTempDir("build-inputs-test-", async (tmp) => {
    const path = join(tmp, "empty.zip");
    await Deno.writeFile(path, zipSync({ "README.md": new TextEncoder().encode("hello") }));
    await assert.rejects(
      resolveRelease(path, join(tmp, "cache"), silentProgress),
      /empty\.zip holds no \.txt files/,
    );
  });
});

Deno.test("plain http off loopback and other schemes are refused", async () => {
  await withTempDir("build-inputs-test-", async (tmp) => {
    const cacheDir = join(tmp, "cache");
    for (
      const url of [
        "http://example.com/db_29_3_text.zip",
        "http://10.0.0.1/db_29_3_text.zip",
        "http://127.0.0.1.example.com/db_29_3_text.zip",
        "ftp://127.0.0.1/db_29_3_text.zip",
        "file:///etc/passwd",
      ]
    ) {
      await assert.rejects(
        resolveRelease(url, cacheDir, silentProgress),
        /only https URLs \(or http on loopback\) are accepted/,
        url,
      );
    }
    assert.deepEqual(await listNames(cacheDir), []);
  });
  assert.equal(allowedUrl(new URL("https://www.onetcenter.org/dl_files/db.zip")), true);
  assert.equal(allowedUrl(new URL("http://localhost:8080/db.zip")), true);
  assert.equal(allowedUrl(new URL("http://[::1]:8080/db.zip")), true);
  assert.equal(allowedUrl(new URL("http://www.onetcenter.org/dl_files/db.zip")), false);
});

Deno.test("a path that is not a folder or a zip is refused", async () => {
  await withTempDir("build-inputs-test-", async (tmp) => {
    const cacheDir = join(tmp, "cache");
    const text = join(tmp, "Occupation Data.txt");
    await Deno.copyFile(join(FIXTURE, "Occupation Data.txt"), text);
    await assert.rejects(
      resolveRelease(text, cacheDir, silentProgress),
      /not a folder, a \.zip file or an https URL/,
    );
    await assert.rejects(
      resolveRelease(join(tmp, "missing.zip"), cacheDir, silentProgress),
      /not a folder, a \.zip file or an https URL/,
    );
    const fake = join(tmp, "fake.zip");
    await Deno.writeTextFile(fake, "this is not a zip archive\n");
    await assert.rejects(
      resolveRelease(fake, cacheDir, silentProgress),
      /fake\.zip is not a readable zip archive/,
    );
    assert.deepEqual(await listNames(join(cacheDir, "onet")), []);
  });
});
