/**
 * `deno task bench:market`: the market build and the market routes.
 *
 * 1. Build time and peak memory of `deno run -A build/main.ts --postings <feed>` for seeded
 *    synthetic feeds of 100k and 1M postings (build/market/synthetic.ts), each build a child
 *    process: wall time, peak RSS of its process tree (/proc/<pid>/status polled every 150 ms,
 *    and `/usr/bin/time -v` when installed), and the build's own per-step progress lines, each
 *    with the peak RSS seen during that step. Target: 1M postings in under 5 minutes and 4 GiB.
 * 2. Throughput of the market routes beside GET /api/v1/health in the same run, on the real
 *    server (serve/main.ts) over the 100k market artifact, embedded PGlite or a scratch database
 *    on the DATABASE_URL server, with a runtime key whose limits are raised through the operator
 *    task: wrk (-t1) or bench/load.ts without it, after warm-up rounds over every route. Target:
 *    each market route within 20% of health's req/s; health runs before the first market route
 *    and after each one, and a route is compared with the mean of the health runs around it.
 *
 * Scratch folder ./data/bench-market/: `artifacts/` holds the full taxonomy (built once with
 * `deno task build --onet`, reused while its `current` pointer is valid and the source is the
 * same) and the market versions; `feeds/` the generated feeds, cached by count, seed and a hash
 * of build/market/synthetic.ts (a changed generator makes new feeds and drops the old ones).
 *
 * Flags: --quick (100k only, 3 s runs), --onet PATH (default ../shared/data/onet/db_29_3_text),
 * --seed N (42), --seconds N (5), --connections N (32), --no-wrk, --no-routes.
 */
import { join, resolve } from "node:path";
import { writeSyntheticFeed } from "../build/market/synthetic.ts";
import { exists, readPointer } from "../build/publish.ts";
import {
  failedRoutes,
  flagReader,
  loadAverage,
  type LoadFlags,
  measureBesideHealth,
  parseLoadFlags,
  printRoutesReport,
  type RoutesRun,
} from "./beside_health.ts";
import { memoryOf } from "./load.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const SCRATCH = join(ROOT, "data/bench-market");
const ARTIFACTS = join(SCRATCH, "artifacts");
const FEEDS = join(SCRATCH, "feeds");
/** Which release the scratch taxonomy was built from (rebuilt when --onet differs). */
const TAXONOMY_SOURCE = join(SCRATCH, "taxonomy-source.txt");
const DEFAULT_ONET = join(ROOT, "../shared/data/onet/db_29_3_text");
const TIME = "/usr/bin/time";
const SAMPLE_MS = 150;
const ROUTE_SIZE = 100_000;
const TARGETS = { buildCount: 1_000_000, buildSeconds: 300, buildMiB: 4096 };
const MARKET_ROUTES = [
  "/api/v1/market/top?type=technology",
  "/api/v1/market/top?type=skill&country=US&scope=historical",
  "/api/v1/market/skills/trending",
  "/api/v1/market/technologies/trending",
  "/api/v1/market/overview",
  "/api/v1/market/remote-rate",
];

/** Settings of a run, from the command line. */
export interface MarketBenchOptions extends LoadFlags {
  sizes: number[];
  onet: string;
  seed: number;
  routes: boolean;
}

/** Parses --quick, --onet PATH, --seed N, --seconds N, --connections N, --no-wrk, --no-routes. */
export function parseArgs(args: string[]): MarketBenchOptions {
  const { value, count } = flagReader(args);
  return {
    ...parseLoadFlags(args),
    sizes: args.includes("--quick") ? [ROUTE_SIZE] : [ROUTE_SIZE, 1_000_000],
    onet: resolve(value("--onet") ?? DEFAULT_ONET),
    seed: count("--seed", 42, 0),
    routes: !args.includes("--no-routes"),
  };
}

// ---------------------------------------------------------------------------------------
// Memory of a process tree

/** Children of every process, from the ppid field of /proc/<pid>/stat. */
function childrenByParent(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
    } catch {
      continue; // gone since the listing
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry.name));
    children.set(ppid, list);
  }
  return children;
}

/** pid and all its descendants (without pid itself when `self` is false). */
export function processTree(pid: number, self = true): number[] {
  const children = childrenByParent();
  const out: number[] = self ? [pid] : [];
  const queue = [...children.get(pid) ?? []];
  while (queue.length) {
    const next = queue.shift()!;
    out.push(next);
    queue.push(...children.get(next) ?? []);
  }
  return out;
}

/** Samples the summed VmRSS and the largest VmHWM of a process tree. */
class TreeMemory {
  /** Largest sum of VmRSS over the tree at one sample, kB. */
  peakRss = 0;
  /** Largest VmHWM of a single process of the tree, kB. */
  peakHwm = 0;
  /** Largest summed VmRSS since the last {@link resetWindow}, kB. */
  windowPeak = 0;
  samples = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  constructor(readonly root: number, readonly includeRoot: boolean) {}
  sample(): void {
    let rss = 0;
    for (const pid of processTree(this.root, this.includeRoot)) {
      try {
        const m = memoryOf(pid);
        rss += m.rss;
        this.peakHwm = Math.max(this.peakHwm, m.peak);
      } catch { /* exited, or a zombie without memory fields */ }
    }
    this.samples++;
    this.peakRss = Math.max(this.peakRss, rss);
    this.windowPeak = Math.max(this.windowPeak, rss);
  }
  resetWindow(): void {
    this.windowPeak = 0;
    this.sample();
  }
  start(): void {
    this.sample();
    this.#timer = setInterval(() => this.sample(), SAMPLE_MS);
  }
  stop(): void {
    clearInterval(this.#timer);
  }
}

// ---------------------------------------------------------------------------------------
// Builds as child processes

/** One step line of the build's progress output. */
interface StepTiming {
  step: string;
  name: string;
  detail: string;
  seconds: number;
  /** Largest summed RSS of the build's processes while the step ran, kB. */
  peakKb: number;
}

/** What one build run measured. */
interface BuildRun {
  label: string;
  ok: boolean;
  code: number;
  seconds: number;
  /** Peak RSS, kB: /usr/bin/time's maximum when available, else the polled figures. */
  peakKb: number;
  polledRssKb: number;
  polledHwmKb: number;
  timeMaxRssKb: number | null;
  steps: StepTiming[];
  published: string | null;
  /** The build's last output lines, for a failure. */
  tail: string[];
}

const STEP_START = /^\[\s*(\d+)\/(\d+)\] (.*) … $/;
const STEP_DONE = /^\[\s*(\d+\/\d+)\] (.*?) … (.*) \(([\d.]+) s\)$/;

/**
 * Runs `deno run -A build/main.ts <args>` (under `/usr/bin/time -v` when installed), echoes its
 * output with each step's peak RSS, and returns wall time, peak memory and step timings.
 */
async function runBuild(label: string, args: string[]): Promise<BuildRun> {
  const useTime = await exists(TIME);
  const timeFile = useTime ? await Deno.makeTempFile({ prefix: "bench-market-time-" }) : "";
  const deno = [Deno.execPath(), "run", "-A", join(ROOT, "build/main.ts"), ...args];
  const [command, ...commandArgs] = useTime ? [TIME, "-v", "-o", timeFile, ...deno] : deno;
  const shown = ["deno run -A build/main.ts", ...args.map((a) => a.replace(ROOT, "./"))];
  console.log(`  $ ${useTime ? "/usr/bin/time -v " : ""}${shown.join(" ")}`);
  console.log(`  (load average before: ${await loadAverage()})`);
  const started = performance.now();
  const child = new Deno.Command(command, {
    args: commandArgs,
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const memory = new TreeMemory(child.pid, !useTime);
  memory.start();
  const steps: StepTiming[] = [];
  const tail: string[] = [];
  let published: string | null = null;
  const onLine = (line: string) => {
    tail.push(line);
    if (tail.length > 40) tail.shift();
    const done = line.match(STEP_DONE);
    if (done) {
      memory.sample();
      const step: StepTiming = {
        step: done[1],
        name: done[2],
        detail: done[3],
        seconds: Number(done[4]),
        peakKb: memory.windowPeak,
      };
      steps.push(step);
      console.log(`    ${line}  [peak RSS ${step.peakKb ? mib(step.peakKb) : "n/a (exited)"}]`);
      // The next step's window starts here too, in case its start and end arrive together.
      memory.resetWindow();
      return;
    }
    published = line.match(/^published market\/(\S+)/)?.[1] ?? published;
    console.log(`    ${line}`);
  };
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    let buffer = "";
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let at: number;
      while ((at = buffer.indexOf("\n")) >= 0) {
        onLine(buffer.slice(0, at));
        buffer = buffer.slice(at + 1);
      }
      // A step prints its name when it starts and the rest of its line when it ends.
      if (STEP_START.test(buffer)) memory.resetWindow();
    }
    if (buffer) onLine(buffer);
  };
  const [status] = await Promise.all([child.status, pump(child.stdout), pump(child.stderr)]);
  const seconds = (performance.now() - started) / 1000;
  memory.stop();
  let timeMaxRssKb: number | null = null;
  if (useTime) {
    const report = await Deno.readTextFile(timeFile);
    await Deno.remove(timeFile);
    const max = report.match(/Maximum resident set size \(kbytes\): (\d+)/);
    timeMaxRssKb = max ? Number(max[1]) : null;
  }
  const peakKb = Math.max(timeMaxRssKb ?? 0, memory.peakRss, memory.peakHwm);
  const run: BuildRun = {
    label,
    ok: status.success,
    code: status.code,
    seconds,
    peakKb,
    polledRssKb: memory.peakRss,
    polledHwmKb: memory.peakHwm,
    timeMaxRssKb,
    steps,
    published,
    tail,
  };
  console.log(
    `  ${label}: ${status.success ? "ok" : `FAILED (exit ${status.code})`}, ` +
      `wall ${seconds.toFixed(1)} s, peak RSS ${mib(peakKb)} ` +
      `(/usr/bin/time max RSS ${timeMaxRssKb === null ? "n/a" : mib(timeMaxRssKb)}; polled ` +
      `every ${SAMPLE_MS} ms: ${mib(memory.peakRss)} summed VmRSS, ${mib(memory.peakHwm)} ` +
      `VmHWM, ${memory.samples} samples)`,
  );
  return run;
}

/** Kilobytes as whole MiB. */
const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;

/** Builds the full taxonomy into the scratch artifacts unless a valid one from `onet` is there. */
async function ensureTaxonomy(onet: string): Promise<{ version: string; run: BuildRun | null }> {
  const dir = join(ARTIFACTS, "taxonomy");
  const current = await readPointer(dir);
  const source = await Deno.readTextFile(TAXONOMY_SOURCE).then((s) => s.trim(), () => "");
  if (current && source === onet && await exists(join(dir, current, "manifest.json"))) {
    console.log(`  taxonomy: reusing ${current} (built from ${onet})`);
    return { version: current, run: null };
  }
  if (!await exists(onet)) throw new Error(`no O*NET release at ${onet} (pass --onet PATH)`);
  console.log(`  taxonomy: building from ${onet} into ${ARTIFACTS}`);
  const run = await runBuild("taxonomy build", ["--onet", onet, "--artifacts", ARTIFACTS]);
  if (!run.ok) throw new Error(`taxonomy build failed:\n${run.tail.join("\n")}`);
  const version = await readPointer(dir);
  if (!version) throw new Error(`taxonomy build left no current pointer in ${dir}`);
  await Deno.writeTextFile(TAXONOMY_SOURCE, onet + "\n");
  return { version, run };
}

/** The synthetic feed of (count, seed), generated once and cached in the scratch folder. */
async function ensureFeed(count: number, seed: number): Promise<{ path: string; bytes: number }> {
  const generator = await Deno.readFile(join(ROOT, "build/market/synthetic.ts"));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", generator));
  const hash = [...digest.slice(0, 4)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const name = `synthetic-${count}-seed${seed}-${hash}.ndjson`;
  const path = join(FEEDS, name);
  if (await exists(path)) {
    const { size } = await Deno.stat(path);
    console.log(`  feed: reusing ${path} (${(size / 1048576).toFixed(1)} MiB)`);
    return { path, bytes: size };
  }
  await Deno.mkdir(FEEDS, { recursive: true });
  const stale = new RegExp(`^synthetic-${count}-seed${seed}(-[0-9a-f]+)?\\.ndjson(\\.partial)?$`);
  for await (const entry of Deno.readDir(FEEDS)) {
    if (entry.isFile && stale.test(entry.name)) {
      await Deno.remove(join(FEEDS, entry.name));
      console.log(`  feed: removed ${entry.name} (another generator version, or unfinished)`);
    }
  }
  const partial = `${path}.partial`;
  const t0 = performance.now();
  const bytes = await writeSyntheticFeed(partial, { count, seed });
  await Deno.rename(partial, path); // only a complete feed is ever cached
  console.log(
    `  feed: generated ${count} postings (seed ${seed}, generator ${hash}) in ` +
      `${((performance.now() - t0) / 1000).toFixed(1)} s, ${(bytes / 1048576).toFixed(1)} MiB ` +
      `-> ${path}`,
  );
  return { path, bytes };
}

/** One market build over a synthetic feed. */
interface MarketRow {
  count: number;
  feedBytes: number;
  run: BuildRun;
}

async function buildMarketFeed(count: number, seed: number): Promise<MarketRow> {
  console.log(`\nmarket build, ${count} postings`);
  const feed = await ensureFeed(count, seed);
  const run = await runBuild(
    `market build ${count}`,
    ["--postings", feed.path, "--artifacts", ARTIFACTS],
  );
  return { count, feedBytes: feed.bytes, run };
}

// ---------------------------------------------------------------------------------------
// Routes

/** Runs the route throughput part over the current (100k) market artifact. */
function routesPart(options: MarketBenchOptions, marketVersion: string): Promise<RoutesRun> {
  return measureBesideHealth({
    name: "market",
    about: `market ${marketVersion}`,
    artifacts: ARTIFACTS,
    routes: MARKET_ROUTES,
    check: (path, body) => {
      if (body.artifact_version !== marketVersion) {
        throw new Error(`GET ${path}: artifact ${body.artifact_version}, not ${marketVersion}`);
      }
      const lists = Object.entries(body).filter(([, v]) => Array.isArray(v))
        .map(([k, v]) => `${(v as unknown[]).length} ${k}`);
      return `${lists.join(", ")}, jobs_in_scope ${body.jobs_in_scope}`;
    },
  }, options);
}

// ---------------------------------------------------------------------------------------
// Report

function printBuildSummary(rows: MarketRow[]): void {
  const header = ["postings", "feed MiB", "wall s", "peak RSS", "status"];
  console.log(
    `    ${header[0].padEnd(12)}${header.slice(1).map((h) => h.padStart(11)).join("")}   ` +
      "slowest steps",
  );
  for (const { count, feedBytes, run } of rows) {
    const slowest = [...run.steps].sort((a, b) => b.seconds - a.seconds).slice(0, 3)
      .map((s) => `${s.name} ${s.seconds.toFixed(1)} s`).join("; ");
    const cells = [
      (feedBytes / 1048576).toFixed(0),
      run.seconds.toFixed(1),
      mib(run.peakKb),
      run.ok ? "ok" : `exit ${run.code}`,
    ];
    console.log(
      `    ${String(count).padEnd(12)}${cells.map((c) => c.padStart(11)).join("")}   ${slowest}`,
    );
  }
  const big = rows.find((r) => r.count === TARGETS.buildCount);
  if (big) {
    const ok = big.run.ok && big.run.seconds < TARGETS.buildSeconds &&
      big.run.peakKb / 1024 < TARGETS.buildMiB;
    console.log(
      `  target: ${TARGETS.buildCount} postings in < ${TARGETS.buildSeconds} s and ` +
        `< ${TARGETS.buildMiB} MiB: ${big.run.seconds.toFixed(1)} s, ${mib(big.run.peakKb)} -> ` +
        (ok ? "met" : "NOT met"),
    );
  }
}

/** Builds the taxonomy if needed, the market feeds, measures the routes, and reports. */
export async function main(args: string[]): Promise<number> {
  const options = parseArgs(args);
  console.log(
    `market bench: deno ${Deno.version.deno}, ${Deno.build.os} ${Deno.build.arch}, ` +
      `${navigator.hardwareConcurrency} CPUs; feeds of ${options.sizes.join(" and ")} ` +
      `postings (seed ${options.seed}); scratch ${SCRATCH}`,
  );
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  const taxonomy = await ensureTaxonomy(options.onet);
  const builds: MarketRow[] = [];
  let routes: RoutesRun | null = null;
  for (const count of options.sizes) {
    const row = await buildMarketFeed(count, options.seed);
    builds.push(row);
    if (count === ROUTE_SIZE && options.routes) {
      if (!row.run.ok || !row.run.published) {
        console.log(`  no route measurements: the ${count} build did not publish`);
      } else {
        // The build just moved market/current to this version, the one the server will load.
        routes = await routesPart(options, row.run.published);
      }
    }
  }

  console.log(`\nsummary (taxonomy ${taxonomy.version})`);
  if (taxonomy.run) {
    console.log(
      `  taxonomy build: ${taxonomy.run.seconds.toFixed(1)} s, peak RSS ${
        mib(taxonomy.run.peakKb)
      }`,
    );
  }
  console.log("  market builds (child process wall time; peak RSS of its process tree):");
  printBuildSummary(builds);
  if (routes) printRoutesReport(routes, options, `over the ${ROUTE_SIZE} artifact`, "market");
  const failedBuilds = builds.filter((b) => !b.run.ok);
  for (const b of failedBuilds) {
    console.log(`\n  ${b.run.label} failed (exit ${b.run.code}); its last lines:`);
    for (const line of b.run.tail.slice(-15)) console.log(`    ${line}`);
  }
  const failed = failedRoutes(routes);
  if (failed.length) console.log(`  non-2xx answers on ${failed.join(", ")}`);
  // A missed target is reported above, not a failure of the bench.
  return failedBuilds.length || failed.length ? 1 : 0;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
