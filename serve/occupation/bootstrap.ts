/**
 * First-run convenience: when no taxonomy version has been published, build one so
 * `deno task serve` answers on a fresh clone. The configured release folders are tried in
 * order and the first that exists is built: by default the shared O*NET 30.1 release (about
 * 30 s), else the small sample release in fixtures/, with the occupation size prior from the
 * shared OEWS national estimates when they are there (BOOTSTRAP_OEWS). The build runs as `deno task build` in a
 * child process: a full release needs more heap than the server's 320 MB cap leaves.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TAXONOMY } from "../../build/pipeline.ts";
import { readPointer } from "../../build/publish.ts";
import { parseManifest } from "../../build/manifest.ts";
import type { Logger } from "../http/log.ts";

const BUILD_CLI = fileURLToPath(new URL("../../build/main.ts", import.meta.url));

/** The first of `candidates` that exists (and is a folder, unless files are accepted), or null. */
async function firstExisting(
  candidates: readonly string[],
  acceptFiles: boolean,
): Promise<string | null> {
  for (const path of candidates) {
    try {
      const info = await Deno.stat(path);
      if (acceptFiles || info.isDirectory) return path;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return null;
}

/** The first of `candidates` that is a folder, or null. */
export const firstFolder = (candidates: readonly string[]) => firstExisting(candidates, false);

/** Builds the taxonomy from the first existing folder of `onetDirs` if none is published. */
export async function bootstrapTaxonomy(
  artifactsDir: string,
  onetDirs: readonly string[],
  logger: Logger,
  oewsPaths: readonly string[] = [],
): Promise<void> {
  if (onetDirs.length === 0 || await readPointer(join(artifactsDir, TAXONOMY))) return;
  const source = await firstFolder(onetDirs);
  if (source === null) {
    throw new Error(`no taxonomy artifact and none of BOOTSTRAP_ONET_DIR exists: ${onetDirs}`);
  }
  logger.warn("no taxonomy artifact found; building one from the first release folder found", {
    source,
    tried: onetDirs.slice(0, onetDirs.indexOf(source)),
    hint: "to build another release run: deno task build --onet <folder | zip | https URL>",
  });
  // The occupation size prior from the OEWS national estimates, when a configured path exists
  // (the build names what it used, or says it built without the prior).
  const oews = await firstExisting(oewsPaths, true);
  // `deno task build` itself: word vectors from the pinned package when it is installed, and
  // its progress lines on stderr.
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      BUILD_CLI,
      "--onet",
      source,
      ...(oews ? ["--oews", oews] : []),
      "--artifacts",
      artifactsDir,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
  }).output();
  const version = await readPointer(join(artifactsDir, TAXONOMY));
  if (code !== 0 || version === null) {
    throw new Error(`taxonomy build from ${source} failed (exit ${code}); see its output above`);
  }
  const manifest = parseManifest(
    await Deno.readTextFile(join(artifactsDir, TAXONOMY, version, "manifest.json")),
  );
  logger.info("taxonomy artifact built", {
    version,
    release: manifest.release.version,
    header_style: manifest.onet_layout?.header_style,
  });
}
