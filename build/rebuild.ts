/**
 * The scheduled artifact rebuild job. `deno task rebuild --config rebuild.json` reads the
 * declared sources, builds every artifact whose inputs changed (taxonomy first: a new taxonomy
 * also rebuilds the market, which classifies with it), runs every build's checks, and only when
 * all of them passed promotes the new versions by moving `current` (taxonomy, then market).
 * Running servers pick the new versions up through their pointer watch. Then it keeps the
 * newest N versions. `--rollback <artifact>` moves `current` back to the version it pointed at
 * before. Exit codes: 0 done (or nothing to do), 1 a build or check failed (nothing promoted),
 * 2 bad configuration.
 *
 * Config (paths relative to the config file; sources may be https URLs):
 * ```json
 * { "artifacts": "./artifacts", "keep": 3,
 *   "taxonomy": { "onet": "../shared/data/onet/db_29_3_text" },
 *   "market": { "postings": ["../shared/data/postings"], "as_of": null } }
 * ```
 */
import { parseArgs } from "node:util";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { buildTaxonomy, TAXONOMY } from "./pipeline.ts";
import { resolveOewsNational } from "./steps/employment.ts";
import { buildMarket, MARKET, MARKET_SCHEMA_VERSION } from "./market/pipeline.ts";
import { EXTRACTOR_VERSION } from "./market/extract.ts";
import { TAXONOMY_SCHEMA_VERSION } from "./manifest.ts";
import { allowedUrl, resolveRelease } from "./input.ts";
import { pruneVersions, readHistory, readPointer, writePointer } from "./publish.ts";
import { sha256File, sha256Hex } from "./hash.ts";
import { type Progress, silentProgress } from "./progress.ts";
import { defaultEmbeddings } from "./steps/vectors.ts";
import { RANKER_VERSION } from "../serve/occupation/engine/index.ts";
import { NORMALIZER_VERSION } from "../serve/text/normalize.ts";

/** The parsed rebuild configuration. */
export interface RebuildConfig {
  artifacts: string;
  keep: number;
  cache: string;
  /** oews: an OEWS national file or folder for the ranker's size prior (absent: no prior). */
  taxonomy: { onet: string; embeddings: string | null; oews?: string | null } | null;
  market: { postings: string[]; asOf: string | null } | null;
}

/** A configuration error (exit code 2). */
export class ConfigProblem extends Error {}

const isUrl = (s: string) => /^[a-z]+:\/\//i.test(s);

/** Reads and checks a rebuild configuration file. */
export async function readRebuildConfig(path: string): Promise<RebuildConfig> {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(await Deno.readTextFile(path));
  } catch (error) {
    throw new ConfigProblem(`${path}: ${error instanceof Error ? error.message : error}`);
  }
  const base = dirname(resolve(path));
  const at = (p: string) => isUrl(p) || isAbsolute(p) ? p : resolve(base, p);
  const keep = value.keep ?? 3;
  if (typeof keep !== "number" || !Number.isInteger(keep) || keep < 1) {
    throw new ConfigProblem(`${path}: keep must be a whole number >= 1`);
  }
  const taxonomy = value.taxonomy as Record<string, unknown> | undefined;
  const market = value.market as Record<string, unknown> | undefined;
  if (taxonomy && typeof taxonomy.onet !== "string") {
    throw new ConfigProblem(`${path}: taxonomy.onet must name an O*NET release`);
  }
  if (taxonomy?.oews !== undefined && taxonomy.oews !== null && typeof taxonomy.oews !== "string") {
    throw new ConfigProblem(`${path}: taxonomy.oews must name an OEWS national file or folder`);
  }
  if (
    market &&
    (!Array.isArray(market.postings) || market.postings.length === 0 ||
      market.postings.some((p) => typeof p !== "string"))
  ) {
    throw new ConfigProblem(`${path}: market.postings must be a list of feed paths or URLs`);
  }
  const asOf = market?.as_of ?? null;
  if (asOf !== null && (typeof asOf !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(asOf))) {
    throw new ConfigProblem(`${path}: market.as_of must be YYYY-MM-DD or null`);
  }
  if (!taxonomy && !market) throw new ConfigProblem(`${path}: declares no artifact to build`);
  const embeddings = taxonomy?.embeddings;
  return {
    artifacts: at(typeof value.artifacts === "string" ? value.artifacts : "./artifacts"),
    keep,
    cache: at(typeof value.cache === "string" ? value.cache : "./data/cache"),
    taxonomy: taxonomy
      ? {
        onet: at(taxonomy.onet as string),
        embeddings: embeddings === null
          ? null
          : typeof embeddings === "string"
          ? at(embeddings)
          : defaultEmbeddings(),
        oews: typeof taxonomy.oews === "string" ? at(taxonomy.oews) : null,
      }
      : null,
    market: market ? { postings: (market.postings as string[]).map(at), asOf } : null,
  };
}

/** sha256 of every file under a path, as sorted "relative path  digest" lines. */
async function treeDigest(path: string): Promise<string> {
  const lines: string[] = [];
  const info = await Deno.stat(path);
  if (info.isFile) return `${basename(path)}  ${await sha256File(path)}`;
  const walk = async (dir: string) => {
    const entries: Deno.DirEntry[] = [];
    for await (const entry of Deno.readDir(dir)) entries.push(entry);
    entries.sort((a, b) => a.name < b.name ? -1 : 1);
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory) await walk(full);
      else if (entry.isFile) lines.push(`${relative(path, full)}  ${await sha256File(full)}`);
    }
  };
  await walk(path);
  return lines.join("\n");
}

/** Downloads a feed URL (fresh on every run: a feed at a fixed URL changes). */
async function fetchFeed(url: string, dir: string): Promise<string> {
  const parsed = new URL(url);
  if (!allowedUrl(parsed)) throw new ConfigProblem(`${url}: only https URLs are accepted`);
  const response = await fetch(parsed, { redirect: "follow" });
  if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status}`);
  const name = basename(parsed.pathname) || "feed.ndjson";
  const target = join(dir, `${(await sha256Hex(url)).slice(0, 12)}-${name}`);
  const file = await Deno.open(target, { write: true, create: true, truncate: true });
  await response.body.pipeTo(file.writable);
  return target;
}

interface State {
  /** version -> the input fingerprint it was built from */
  built: Record<string, string>;
}

async function readState(dir: string): Promise<State> {
  try {
    return JSON.parse(await Deno.readTextFile(join(dir, ".rebuild-state.json")));
  } catch {
    return { built: {} };
  }
}

async function writeState(dir: string, state: State): Promise<void> {
  const tmp = join(dir, `.rebuild-state.${Deno.pid}.tmp`);
  await Deno.writeTextFile(tmp, JSON.stringify(state, null, 2) + "\n");
  await Deno.rename(tmp, join(dir, ".rebuild-state.json"));
}

/** What one rebuild run did per artifact. */
export interface RebuildOutcome {
  artifact: string;
  action: "unchanged" | "promoted";
  version: string;
}

/** Runs the rebuild job; throws (nothing promoted) when any build or check fails. */
export async function runRebuild(
  config: RebuildConfig,
  progress: Progress = silentProgress,
): Promise<RebuildOutcome[]> {
  const staged: { artifact: string; version: string; fingerprint: string }[] = [];
  const outcomes: RebuildOutcome[] = [];
  const downloads = await Deno.makeTempDir({ prefix: "rebuild-feeds-" });
  try {
    let taxonomyVersion = await readPointer(join(config.artifacts, TAXONOMY));
    let taxonomyChanged = false;
    if (config.taxonomy) {
      const dir = join(config.artifacts, TAXONOMY);
      const release = await resolveRelease(config.taxonomy.onet, config.cache, progress);
      const oews = config.taxonomy.oews ? await resolveOewsNational(config.taxonomy.oews) : null;
      const fingerprint = await sha256Hex(JSON.stringify([
        TAXONOMY_SCHEMA_VERSION,
        NORMALIZER_VERSION,
        RANKER_VERSION,
        await treeDigest(release),
        config.taxonomy.embeddings ? await sha256File(config.taxonomy.embeddings) : null,
        ...(oews ? [await sha256File(oews)] : []),
      ]));
      const state = await readState(dir);
      if (taxonomyVersion && state.built[taxonomyVersion] === fingerprint) {
        progress.info(`taxonomy: inputs unchanged, keeping ${taxonomyVersion}`);
        outcomes.push({ artifact: TAXONOMY, action: "unchanged", version: taxonomyVersion });
      } else {
        const result = await buildTaxonomy(release, config.artifacts, progress, {
          embeddings: config.taxonomy.embeddings,
          oews,
          promote: false,
        });
        staged.push({ artifact: TAXONOMY, version: result.version, fingerprint });
        taxonomyChanged = result.version !== taxonomyVersion;
        taxonomyVersion = result.version;
      }
    }
    if (config.market) {
      if (!taxonomyVersion) throw new ConfigProblem("the market needs a taxonomy: declare one");
      const dir = join(config.artifacts, MARKET);
      const feeds: string[] = [];
      for (const source of config.market.postings) {
        feeds.push(isUrl(source) ? await fetchFeed(source, downloads) : source);
      }
      const digests: string[] = [];
      for (const feed of feeds) digests.push(await treeDigest(feed));
      const fingerprint = await sha256Hex(JSON.stringify([
        MARKET_SCHEMA_VERSION,
        EXTRACTOR_VERSION,
        taxonomyVersion,
        config.market.asOf,
        await treeDigest(new URL("./market/dictionary", import.meta.url).pathname),
        await treeDigest(new URL("./market/maps", import.meta.url).pathname),
        digests,
      ]));
      const current = await readPointer(dir);
      const state = await readState(dir);
      if (current && !taxonomyChanged && state.built[current] === fingerprint) {
        progress.info(`market: inputs unchanged, keeping ${current}`);
        outcomes.push({ artifact: MARKET, action: "unchanged", version: current });
      } else {
        const result = await buildMarket(config.artifacts, {
          postings: feeds,
          asOf: config.market.asOf ?? undefined,
          promote: false,
          taxonomyVersion,
        }, progress);
        staged.push({ artifact: MARKET, version: result.version, fingerprint });
      }
    }
  } finally {
    await Deno.remove(downloads, { recursive: true }).catch(() => {});
  }
  // Every build and check passed: promote, taxonomy first.
  for (const item of staged) {
    const dir = join(config.artifacts, item.artifact);
    const state = await readState(dir);
    state.built[item.version] = item.fingerprint;
    await writeState(dir, state);
    await writePointer(dir, item.version);
    progress.info(`${item.artifact}: promoted ${item.version}`);
    outcomes.push({ artifact: item.artifact, action: "promoted", version: item.version });
  }
  for (const name of [TAXONOMY, MARKET]) {
    const removed = await pruneVersions(join(config.artifacts, name), config.keep);
    if (removed.length) progress.info(`${name}: pruned ${removed.join(", ")}`);
  }
  return outcomes;
}

/** Moves an artifact's `current` back to the version it pointed at before; returns it. */
export async function rollback(artifactsDir: string, artifact: string): Promise<string> {
  const dir = join(artifactsDir, artifact);
  const current = await readPointer(dir);
  if (!current) throw new ConfigProblem(`${artifact}: no current version`);
  const history = await readHistory(dir);
  while (history.length > 0 && history[history.length - 1] === current) history.pop();
  for (let i = history.length - 1; i >= 0; i--) {
    try {
      await Deno.stat(join(dir, history[i], "manifest.json"));
    } catch {
      continue; // pruned since
    }
    await writePointer(dir, history[i]);
    return history[i];
  }
  throw new ConfigProblem(`${artifact}: no earlier version to roll back to`);
}

const USAGE = `usage: deno task rebuild --config rebuild.json
       deno task rebuild --config rebuild.json --rollback <taxonomy | market>`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      config: { type: "string" },
      rollback: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help || !values.config) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const { consoleProgress } = await import("./progress.ts");
  const progress = consoleProgress();
  try {
    const config = await readRebuildConfig(values.config);
    if (values.rollback) {
      if (![TAXONOMY, MARKET].includes(values.rollback)) {
        console.error(`--rollback takes ${TAXONOMY} or ${MARKET}`);
        return 2;
      }
      const version = await rollback(config.artifacts, values.rollback);
      progress.info(`${values.rollback}: current is now ${version}`);
      return 0;
    }
    const outcomes = await runRebuild(config, progress);
    console.log(JSON.stringify({ outcomes }));
    return 0;
  } catch (error) {
    console.error(`rebuild failed: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof ConfigProblem) return 2;
    console.error("nothing was promoted");
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main());
