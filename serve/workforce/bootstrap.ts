/**
 * First-run convenience: when no evidence version has been published, build one from the
 * reviewed sample snapshots in fixtures/workforce (after the taxonomy bootstrap), so every
 * workforce route answers on a fresh clone. A failure is logged and leaves the workforce
 * routes at 503; it never stops start-up.
 */
import { join } from "node:path";
import { buildEvidence, EVIDENCE } from "../../build/evidence/pipeline.ts";
import { readPointer } from "../../build/publish.ts";
import type { Logger } from "../http/log.ts";

/** Builds the evidence artifact from `dir` if artifactsDir has none; "" disables. */
export async function bootstrapEvidence(
  artifactsDir: string,
  dir: string,
  logger: Logger,
): Promise<void> {
  if (dir === "" || await readPointer(join(artifactsDir, EVIDENCE))) return;
  if (!await readPointer(join(artifactsDir, "taxonomy"))) return;
  logger.warn("no evidence artifact found; building one from the reviewed sample snapshots", {
    source: dir,
    hint: "for the real snapshots run: deno task build --soc ../shared/data/soc --oews " +
      "../shared/data/oews --qwi ../shared/data/qwi",
  });
  try {
    const result = await buildEvidence(artifactsDir, { soc: [dir], oews: [dir], qwi: [dir] });
    logger.info("sample evidence artifact built", { version: result.version });
  } catch (error) {
    logger.error("sample evidence artifact could not be built; workforce routes answer 503", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
