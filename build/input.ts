/**
 * Resolves the --onet argument to a release folder: a folder as it is, an official
 * db_XX_Y_text.zip extracted into the cache, or an https URL downloaded (with a progress
 * bar) into the cache first. Cached downloads and extractions are reused.
 */
import { unzipSync } from "fflate";
import { basename, dirname, join } from "node:path";
import { sha256Hex } from "./hash.ts";
import type { Progress } from "./progress.ts";

const MARKER = "Occupation Data.txt";

async function isDir(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/** Finds the folder inside an extracted release that holds Occupation Data.txt. */
async function findReleaseRoot(dir: string): Promise<string> {
  if (await isFile(join(dir, MARKER))) return dir;
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory && await isFile(join(dir, entry.name, MARKER))) {
      return join(dir, entry.name);
    }
  }
  throw new Error(`${dir}: no "${MARKER}" found; is this an O*NET text release?`);
}

/** Whether a URL may be fetched: https anywhere, http only on loopback (local mirrors, tests). */
export function allowedUrl(url: URL): boolean {
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" &&
    ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}

/**
 * Fetches with redirects followed by hand, so every hop passes the same URL rule, and with
 * identity encoding, so Content-Length is the length of the bytes we receive.
 */
async function fetchChecked(
  start: URL,
): Promise<{ body: ReadableStream<Uint8Array>; total: number | null }> {
  let url = start;
  for (let hop = 0; hop <= 5; hop++) {
    const response = await fetch(url, {
      redirect: "manual",
      headers: { "accept-encoding": "identity" },
    });
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      url = new URL(location, url);
      if (!allowedUrl(url)) throw new Error("download redirected to a URL that is not allowed");
      continue;
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new Error(`download failed: HTTP ${response.status} from ${url.host}`);
    }
    // We asked for identity; a server that compresses anyway is decoded here, and its
    // Content-Length (the compressed size) is then not used to check completeness.
    const encoding = (response.headers.get("content-encoding") ?? "identity").toLowerCase();
    if (encoding === "identity") {
      const length = Number(response.headers.get("content-length"));
      return { body: response.body, total: Number.isFinite(length) && length > 0 ? length : null };
    }
    if (encoding === "gzip" || encoding === "deflate") {
      return { body: response.body.pipeThrough(new DecompressionStream(encoding)), total: null };
    }
    await response.body.cancel();
    throw new Error(`download failed: unsupported content-encoding ${encoding}`);
  }
  throw new Error("download failed: too many redirects");
}

/** Downloads a URL into the cache with a progress bar; returns the cached file. */
export async function download(url: URL, cacheDir: string, progress: Progress): Promise<string> {
  const name = basename(url.pathname) || "download.zip";
  const target = join(cacheDir, "downloads", `${(await sha256Hex(url.href)).slice(0, 16)}-${name}`);
  if (await isFile(target)) {
    progress.info(`using cached download ${target}`);
    return target;
  }
  await Deno.mkdir(dirname(target), { recursive: true });
  const { body, total } = await fetchChecked(url);
  const partial = `${target}.part`;
  const file = await Deno.open(partial, { write: true, create: true, truncate: true });
  let received = 0;
  const writer = file.writable.getWriter();
  try {
    for await (const chunk of body) {
      received += chunk.byteLength;
      await writer.write(chunk);
      progress.transfer(received, total);
    }
    await writer.close();
  } catch (error) {
    await writer.abort().catch(() => {});
    await Deno.remove(partial).catch(() => {});
    throw error;
  }
  if (total !== null && received !== total) {
    await Deno.remove(partial);
    throw new Error(`download truncated: ${received} of ${total} bytes`);
  }
  progress.transfer(received, received);
  await Deno.rename(partial, target);
  return target;
}

/** Extracts a release zip into the cache (keyed by the zip's sha256) and returns its root. */
async function extractZip(zipPath: string, cacheDir: string, progress: Progress): Promise<string> {
  const bytes = await Deno.readFile(zipPath);
  const target = join(cacheDir, "onet", (await sha256Hex(bytes)).slice(0, 16));
  if (await isDir(target)) return await findReleaseRoot(target);
  progress.info(`extracting ${basename(zipPath)}`);
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (f) => f.name.endsWith(".txt") });
  } catch (error) {
    throw new Error(`${basename(zipPath)} is not a readable zip archive (${String(error)})`);
  }
  if (Object.keys(entries).length === 0) {
    throw new Error(`${basename(zipPath)} holds no .txt files; is it an O*NET text release?`);
  }
  const staging = `${target}.${Deno.pid}.tmp`;
  await Deno.remove(staging, { recursive: true }).catch(() => {}); // left by a crashed run
  for (const [name, data] of Object.entries(entries)) {
    const parts = name.split("/").filter((p) => p !== "" && p !== "." && p !== "..");
    if (parts.length === 0) continue;
    const path = join(staging, ...parts);
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeFile(path, data);
  }
  await Deno.rename(staging, target);
  return await findReleaseRoot(target);
}

/** Turns a folder, zip path or URL into the folder of an O*NET text release. */
export async function resolveRelease(
  source: string,
  cacheDir: string,
  progress: Progress,
): Promise<string> {
  if (/^[a-z]+:\/\//i.test(source)) {
    const url = new URL(source);
    if (!allowedUrl(url)) throw new Error("only https URLs (or http on loopback) are accepted");
    return await extractZip(await download(url, cacheDir, progress), cacheDir, progress);
  }
  if (await isDir(source)) return await findReleaseRoot(source);
  if (await isFile(source) && source.toLowerCase().endsWith(".zip")) {
    return await extractZip(source, cacheDir, progress);
  }
  throw new Error(`${source}: not a folder, a .zip file or an https URL`);
}
