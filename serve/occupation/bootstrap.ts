/**
 * First-run convenience: when no taxonomy version has been published, build one from the
 * small sample release in fixtures/ so `deno task serve` works on a fresh clone.
 */
import { join } from "node:path";
import { buildTaxonomy, TAXONOMY } from "../../build/pipeline.ts";
import { readPointer } from "../../build/publish.ts";
import { defaultEmbeddings } from "../../build/steps/vectors.ts";
import type { Logger } from "../http/log.ts";

/** Builds the taxonomy from `onetDir` if artifactsDir has no current version; "" disables. */
export async function bootstrapTaxonomy(
  artifactsDir: string,
  onetDir: string,
  logger: Logger,
): Promise<void> {
  if (onetDir === "" || await readPointer(join(artifactsDir, TAXONOMY))) return;
  logger.warn("no taxonomy artifact found; building one from the sample release", {
    source: onetDir,
    hint: "for the full release run: deno task build --onet <folder | zip | https URL>",
  });
  // Like `deno task build`: word vectors from the pinned package when it is installed.
  const result = await buildTaxonomy(onetDir, artifactsDir, undefined, {
    embeddings: defaultEmbeddings(),
  });
  logger.info("sample taxonomy artifact built", { version: result.version });
}
