/**
 * `deno task bench:rank`: what one ranking costs, in process, without the server around it. The
 * ranking worker is the busiest thread of an uncached candidates request (bench:serve prints its
 * CPU per request), so a change to the ranking's cost shows here first, with less of the noise of
 * a machine shared with the load generator.
 *
 * Ranks the first N distinct real posting titles (the titles bench:serve cycles) on the current
 * taxonomy artifact, as the server does (hybrid channel when the artifact has vectors, 10
 * results), after a warm-up, and prints the time per ranking: mean, p50, p90, p99, p99.9 and max
 * over every ranking of R rounds.
 *
 * With `--base <git ref>`, the same titles are also ranked by the engine of that commit (its
 * `serve/` tree, extracted to a temporary folder) in the same process, rounds alternating, and the
 * medians of the per-round means are compared: two engines in one process see the same machine, so
 * a few percent shows where two separate runs differ by ten. Both engines rank from the same
 * artifact's index source: a base of another ranker version ranks differently, so its figures
 * compare different rankings as well as different speeds.
 *
 * Usage: deno task bench:rank [--artifact <dir | version | release>] [--titles N] [--rounds R]
 *   [--base <git ref>]
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { readIndexSource } from "../serve/occupation/engine/load.ts";
import { type IndexSource, OccupationIndex } from "../serve/occupation/engine/index.ts";
import { resolveSide } from "../build/diff_releases.ts";
import { postingTitles } from "./serve.ts";

const POSTINGS = new URL(
  "../../shared/data/postings/linkedin_2023_arshkon_v1_nodesc/job_postings.csv",
  import.meta.url,
);

interface Ranker {
  rank(
    query: { title: string },
    options: { limit: number; semantic: boolean },
  ): { results: unknown[] };
}

/** Per-ranking times in µs of one round over the titles. */
function round(index: Ranker, titles: string[], semantic: boolean, times?: number[]): number {
  const start = performance.now();
  for (const title of titles) {
    const t0 = performance.now();
    index.rank({ title }, { limit: 10, semantic });
    times?.push((performance.now() - t0) * 1000);
  }
  return (performance.now() - start) * 1000 / titles.length;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))];
const median = (values: number[]) => quantile([...values].sort((a, b) => a - b), 0.5);

/** The OccupationIndex class of a commit's serve/ tree, extracted to a temporary folder. */
async function baseEngine(ref: string): Promise<new (source: IndexSource) => Ranker> {
  const dir = await Deno.makeTempDir({ prefix: "bench-rank-" });
  const archive = new Deno.Command("git", {
    args: ["archive", "--format=tar", ref, "serve"],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const untar = new Deno.Command("tar", { args: ["-x", "-C", dir], stdin: "piped" }).spawn();
  await archive.stdout.pipeTo(untar.stdin);
  const [archived, untarred] = await Promise.all([archive.output(), untar.status]);
  if (!archived.success || !untarred.success) {
    throw new Error(`git archive ${ref} serve: ${new TextDecoder().decode(archived.stderr)}`);
  }
  // The engine's module graph is relative imports only, so it loads from outside the project.
  const module = await import(join(dir, "serve/occupation/engine/index.ts"));
  await Deno.remove(dir, { recursive: true }); // loaded: the graph has no lazy imports
  return module.OccupationIndex;
}

/**
 * The index source of a taxonomy artifact (a folder, version or release; default: ARTIFACTS_DIR's
 * current one) and where it was read from.
 */
export async function loadIndexSource(
  artifact?: string,
): Promise<{ side: Awaited<ReturnType<typeof resolveSide>>; source: IndexSource }> {
  const artifacts = Deno.env.get("ARTIFACTS_DIR") ?? "./artifacts";
  const target = artifact ??
    (await Deno.readTextFile(join(artifacts, "taxonomy/current"))).trim();
  const side = await resolveSide(target, artifacts);
  const instance = await DuckDBInstance.create(join(side.dir, "taxonomy.duckdb"), {
    access_mode: "READ_ONLY",
  });
  const connection = await instance.connect();
  const source = await readIndexSource(connection);
  connection.closeSync();
  instance.closeSync();
  return { side, source };
}

async function main() {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      artifact: { type: "string" },
      titles: { type: "string", default: "3000" },
      rounds: { type: "string", default: "12" },
      base: { type: "string" },
    },
  });
  const count = Number(values.titles);
  const rounds = Number(values.rounds);
  if (!(count >= 100) || !(rounds >= 2)) throw new Error("--titles >= 100 and --rounds >= 2");
  const { side, source } = await loadIndexSource(values.artifact);
  // With a base, two indexes each, built base, tree, tree, base: in a run of one engine against
  // itself the index built first ranked 2-4% faster than the one built second (where each lands in
  // memory), so each side gets one early and one late index.
  const Base = values.base ? await baseEngine(values.base) : null;
  const bases: Ranker[] = [];
  if (Base) bases.push(new Base(source));
  const index = new OccupationIndex(source);
  const trees: Ranker[] = [index];
  if (Base) trees.push(new OccupationIndex(source));
  if (Base) bases.push(new Base(source));
  const engines = [
    ...trees.map((e) => ({ e, tree: true })),
    ...bases.map((e) => ({ e, tree: false })),
  ];
  const semantic = index.hasVectors;
  const titles = postingTitles(await Deno.readTextFile(POSTINGS), count);
  console.log(
    `artifact ${side.dir}; ${titles.length} distinct posting titles; ${rounds} rounds; ` +
      `${semantic ? "hybrid" : "lexical"} channel, 10 results` +
      (Base ? `; two indexes per engine, built base, tree, tree, base` : ""),
  );
  for (let i = 0; i < 3; i++) for (const { e } of engines) round(e, titles, semantic);
  const times: number[] = [];
  const means: number[] = [];
  const baseMeans: number[] = [];
  for (let r = 0; r < rounds; r++) {
    // Each round starts with another engine, so none always follows another's garbage.
    for (let k = 0; k < engines.length; k++) {
      const { e, tree } = engines[(r + k) % engines.length];
      const mean = round(e, titles, semantic, tree ? times : []);
      (tree ? means : baseMeans).push(mean);
    }
  }
  const sorted = times.sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  const f = (v: number) => v.toFixed(1);
  console.log(
    `  this tree: mean ${f(mean)} µs a ranking, p50 ${f(quantile(sorted, 0.5))}, ` +
      `p90 ${f(quantile(sorted, 0.9))}, p99 ${f(quantile(sorted, 0.99))}, ` +
      `p99.9 ${f(quantile(sorted, 0.999))}, max ${f(sorted.at(-1)!)} (${sorted.length} rankings)`,
  );
  console.log(
    `  per-round means: median ${f(median(means))} µs, range ${f(Math.min(...means))}-` +
      `${f(Math.max(...means))}`,
  );
  if (Base) {
    console.log(
      `  base ${values.base}: per-round means median ${f(median(baseMeans))} µs, range ` +
        `${f(Math.min(...baseMeans))}-${f(Math.max(...baseMeans))}; this tree / base ` +
        `${(median(means) / median(baseMeans)).toFixed(3)}`,
    );
  }
}

if (import.meta.main) await main();
