/**
 * First-run convenience: when no market version has been published, build one from the small
 * sample feed in fixtures/ (after the taxonomy bootstrap), so every market route answers on a
 * fresh clone. A failure is logged and leaves the market routes at 503; it never stops start-up.
 */
import { join } from "node:path";
import { buildMarket, MARKET } from "../../build/market/pipeline.ts";
import { readPointer } from "../../build/publish.ts";
import type { Logger } from "../http/log.ts";

/** Builds the market artifact from `feed` if artifactsDir has none; "" disables. */
export async function bootstrapMarket(
  artifactsDir: string,
  feed: string,
  logger: Logger,
): Promise<void> {
  if (feed === "" || await readPointer(join(artifactsDir, MARKET))) return;
  if (!await readPointer(join(artifactsDir, "taxonomy"))) return;
  logger.warn("no market artifact found; building one from the sample feed", {
    source: feed,
    hint: "for real feeds run: deno task build --postings <file | folder>",
  });
  try {
    const result = await buildMarket(artifactsDir, { postings: [feed] });
    logger.info("sample market artifact built", { version: result.version });
  } catch (error) {
    logger.error("sample market artifact could not be built; market routes answer 503", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
