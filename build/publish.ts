/**
 * Atomic publication of artifact versions. A version folder appears by rename only after
 * its checks passed; the `current` pointer is a one-line file replaced by rename last, so
 * a reader sees either the old or the new version, never a half-written one.
 */
import { join } from "node:path";
import type { Manifest } from "./manifest.ts";
import type { Progress } from "./progress.ts";

/** Name of the pointer file inside an artifact's folder. */
export const POINTER_FILE = "current";

/** Reads the version named by an artifact's `current` pointer, or null when there is none. */
export async function readPointer(artifactDir: string): Promise<string | null> {
  try {
    const text = (await Deno.readTextFile(join(artifactDir, POINTER_FILE))).trim();
    return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(text) ? text : null;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Name of the file that lists the versions `current` pointed at, oldest first. */
export const HISTORY_FILE = ".history";

/** Points `current` at a version by writing a temporary file and renaming it over. */
export async function writePointer(artifactDir: string, version: string): Promise<void> {
  const tmp = join(artifactDir, `.${POINTER_FILE}.${Deno.pid}.tmp`);
  await Deno.writeTextFile(tmp, version + "\n");
  await Deno.rename(tmp, join(artifactDir, POINTER_FILE));
  await Deno.writeTextFile(join(artifactDir, HISTORY_FILE), version + "\n", { append: true });
}

/** The versions `current` pointed at, oldest first (consecutive repeats folded). */
export async function readHistory(artifactDir: string): Promise<string[]> {
  let text = "";
  try {
    text = await Deno.readTextFile(join(artifactDir, HISTORY_FILE));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const out: string[] = [];
  for (const line of text.split("\n").map((l) => l.trim())) {
    if (line !== "" && out[out.length - 1] !== line) out.push(line);
  }
  return out;
}

/** Whether a path exists (any other error than "not found" is thrown). */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * Moves a finished build folder into place as `version` and moves the pointer. When that
 * version already exists (same content hash), the new copy is dropped and the existing one
 * kept, so republishing identical inputs is a no-op apart from the pointer and the derived
 * `*.snapshot` files, which the new build's replace. With `promote`
 * false the version is only put in place; the caller moves the pointer later.
 */
export async function publishVersion(
  artifactDir: string,
  buildDir: string,
  version: string,
  promote = true,
): Promise<{ dir: string; reused: boolean }> {
  const target = join(artifactDir, version);
  let reused = false;
  if (await exists(target)) {
    // Derived files (*.snapshot: not under the content hash) come from the code that built them,
    // so the new build's replace the published ones.
    for await (const entry of Deno.readDir(buildDir)) {
      if (entry.isFile && entry.name.endsWith(".snapshot")) {
        await Deno.rename(join(buildDir, entry.name), join(target, entry.name));
      }
    }
    await Deno.remove(buildDir, { recursive: true });
    const now = new Date();
    await Deno.utime(target, now, now); // "newest" for pruning means most recently published
    reused = true;
  } else {
    await Deno.rename(buildDir, target);
  }
  if (promote) await writePointer(artifactDir, version);
  return { dir: target, reused };
}

/** Lists published versions (folders that hold a manifest), newest first by modification time. */
export async function listVersions(
  artifactDir: string,
): Promise<{ name: string; mtime: number }[]> {
  const versions: { name: string; mtime: number }[] = [];
  try {
    for await (const entry of Deno.readDir(artifactDir)) {
      if (!entry.isDirectory || entry.name.startsWith(".")) continue;
      if (!await exists(join(artifactDir, entry.name, "manifest.json"))) continue;
      const info = await Deno.stat(join(artifactDir, entry.name));
      versions.push({ name: entry.name, mtime: info.mtime?.getTime() ?? 0 });
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return versions.sort((a, b) => b.mtime - a.mtime || b.name.localeCompare(a.name));
}

/** Deletes all but the `keep` newest versions; the current version is never deleted. */
export async function pruneVersions(artifactDir: string, keep: number): Promise<string[]> {
  const current = await readPointer(artifactDir);
  const versions = await listVersions(artifactDir);
  const kept = new Set(versions.slice(0, keep).map((v) => v.name));
  if (current) kept.add(current);
  const removed: string[] = [];
  for (const version of versions) {
    if (kept.has(version.name)) continue;
    await Deno.remove(join(artifactDir, version.name), { recursive: true });
    removed.push(version.name);
  }
  return removed;
}

/**
 * The common end of every build: writes manifest.json into the build folder, then publishes
 * it as the manifest's version (the "publish" step is announced through `step`).
 */
export async function writeManifestAndPublish(
  artifactDir: string,
  buildDir: string,
  manifest: Manifest,
  promote: boolean,
  progress: Progress,
  step: (name: string) => void,
): Promise<{ version: string; dir: string; manifest: Manifest; reused: boolean }> {
  await Deno.writeTextFile(
    join(buildDir, "manifest.json"),
    JSON.stringify(manifest, null, 2) + "\n",
  );
  progress.done(manifest.version);
  step("publish");
  const published = await publishVersion(artifactDir, buildDir, manifest.version, promote);
  progress.done(published.reused ? "identical version already published" : "ok");
  return { version: manifest.version, dir: published.dir, manifest, reused: published.reused };
}
