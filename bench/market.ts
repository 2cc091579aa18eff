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
import { createScratchDatabase } from "../serve/stores/postgres.ts";
import { fetchLoad, freePort, hasWrk, type LoadResult, memoryOf, wrkLoad } from "./load.ts";
import { callJson, mb, ms, raiseLimits, type Send, signUp, tokenFromOutbox } from "./platform.ts";
import { startReady, stopClean } from "./serve.ts";

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
/** Rounds of warm-up over every route before the server is measured. */
const WARMUP_ROUNDS = 2;
const TARGETS = { buildCount: 1_000_000, buildSeconds: 300, buildMiB: 4096, routeShare: 0.8 };
const HEALTH = "/api/v1/health";
const MARKET_ROUTES = [
  "/api/v1/market/top?type=technology",
  "/api/v1/market/top?type=skill&country=US&scope=historical",
  "/api/v1/market/skills/trending",
  "/api/v1/market/technologies/trending",
  "/api/v1/market/overview",
  "/api/v1/market/remote-rate",
];

/** Settings of a run, from the command line. */
export interface MarketBenchOptions {
  sizes: number[];
  onet: string;
  seed: number;
  seconds: number;
  warmup: number;
  connections: number;
  allowWrk: boolean;
  routes: boolean;
}

/** Parses --quick, --onet PATH, --seed N, --seconds N, --connections N, --no-wrk, --no-routes. */
export function parseArgs(args: string[]): MarketBenchOptions {
  const value = (flag: string): string | undefined => {
    const inline = args.find((a) => a.startsWith(`${flag}=`));
    if (inline) return inline.slice(flag.length + 1);
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const count = (flag: string, fallback: number, min = 1): number => {
    const text = value(flag);
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) throw new Error(`${flag} needs a whole number >= ${min}`);
    return n;
  };
  const quick = args.includes("--quick");
  return {
    sizes: quick ? [ROUTE_SIZE] : [ROUTE_SIZE, 1_000_000],
    onet: resolve(value("--onet") ?? DEFAULT_ONET),
    seed: count("--seed", 42, 0),
    seconds: count("--seconds", quick ? 3 : 5),
    warmup: quick ? 1 : 2,
    connections: count("--connections", 32),
    allowWrk: !args.includes("--no-wrk"),
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

/** The 1, 5 and 15 minute load averages: other work on the machine skews the timings. */
async function loadAverage(): Promise<string> {
  const text = await Deno.readTextFile("/proc/loadavg").catch(() => "n/a");
  return text.split(" ").slice(0, 3).join(" ");
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

/** One measured route. */
interface RouteRow {
  route: string;
  result: LoadResult;
  /** Mean req/s of the health runs just before and just after this route's run. */
  healthRps: number;
}

/** Runs the route throughput part over the current (100k) market artifact. */
async function routesPart(options: MarketBenchOptions, marketVersion: string) {
  const useWrk = options.allowWrk && await hasWrk();
  const load = useWrk ? wrkLoad : fetchLoad;
  const scratch = Deno.env.get("DATABASE_URL")
    ? await createScratchDatabase(Deno.env.get("DATABASE_URL")!, "bench_market")
    : null;
  const tmp = await Deno.makeTempDir({ prefix: "bench-market-serve-" });
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: scratch?.url ?? "",
    DATA_DIR: join(tmp, "data"),
    ARTIFACTS_DIR: ARTIFACTS,
    BOOTSTRAP_ONET_DIR: "",
    BOOTSTRAP_POSTINGS: "",
    MAIL_OUTBOX_DIR: join(tmp, "outbox"),
    LOG_LEVEL: "warn",
    ARTIFACT_WATCH: "false",
    MAIL_POLL_MS: "100",
  };
  console.log(
    `\nroutes: serve/main.ts on ${base} over ${ARTIFACTS} (market ${marketVersion}), ` +
      `database: ${scratch ? "a new database on the DATABASE_URL server" : "embedded PGlite"}`,
  );
  let server = await startReady(env, base);
  try {
    const email = `bench-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const send: Send = (path, init) => fetch(`${base}${path}`, init);
    const { key } = await signUp(send, email, () => tokenFromOutbox(env.MAIL_OUTBOX_DIR, email));
    console.log(`  signed up ${email} over HTTP (verification link read from the .eml outbox)`);
    server = await raiseLimits(server, email, env);
    console.log(`  load average: ${await loadAverage()}`);

    for (const path of MARKET_ROUTES) {
      const body = await callJson(send, "GET", path, undefined, key);
      if (body.artifact_version !== marketVersion) {
        throw new Error(`GET ${path}: artifact ${body.artifact_version}, not ${marketVersion}`);
      }
      const lists = Object.entries(body).filter(([, v]) => Array.isArray(v))
        .map(([k, v]) => `${(v as unknown[]).length} ${k}`);
      console.log(
        `  check GET ${path} -> 200, ${lists.join(", ")}, jobs_in_scope ${body.jobs_in_scope}`,
      );
    }
    const status = await callJson(send, "GET", HEALTH, undefined, key);
    const loaded = (status.artifacts ?? []).map((a: { name: string; version: string }) =>
      `${a.name} ${a.version}`
    );
    console.log(`  check GET ${HEALTH} -> 200, ${status.status}, ${loaded.join(", ")}`);
    const ready = memoryOf(server.child.pid);
    console.log(`  server RSS after start and checks: ${mb(ready.rss)}`);

    const headers = { authorization: `Bearer ${key}` };
    const run = (path: string, seconds: number) =>
      load(`${base}${path}`, { connections: options.connections, seconds, headers });
    // The server (and an in-process generator) speeds up for tens of seconds after start as
    // the JIT settles: warm every route up first, in rounds.
    const t0 = performance.now();
    for (let round = 0; round < WARMUP_ROUNDS; round++) {
      for (const path of [HEALTH, ...MARKET_ROUTES]) await run(path, options.warmup);
    }
    console.log(
      `  warm-up: ${WARMUP_ROUNDS} rounds of ${options.warmup} s on every route ` +
        `(${((performance.now() - t0) / 1000).toFixed(0)} s)`,
    );
    // Health before and after each market route, so each is compared with its neighbours
    // rather than with one health figure from a different moment.
    const health: LoadResult[] = [];
    const rows: RouteRow[] = [];
    const measure = async (path: string) => {
      const result = await run(path, options.seconds);
      console.log(
        `    GET ${path}: ${Math.round(result.rps)} req/s, p99 ${ms(result.p99, 2)} ms` +
          (result.failures ? `, ${result.failures} non-2xx/errors` : ""),
      );
      return result;
    };
    health.push(await measure(HEALTH));
    for (const path of MARKET_ROUTES) {
      const result = await measure(path);
      health.push(await measure(HEALTH));
      const [before, after] = health.slice(-2);
      const healthRps = (before.rps + after.rps) / 2;
      rows.push({ route: `GET ${path}`, result, healthRps });
      console.log(
        `      -> ${Math.round((100 * result.rps) / healthRps)}% of health (mean of the runs ` +
          `before and after: ${Math.round(healthRps)} req/s)`,
      );
    }
    const memory = memoryOf(server.child.pid);
    await stopClean(server);
    const why = useWrk ? "" : options.allowWrk ? " (wrk is not on PATH)" : " (--no-wrk)";
    return { rows, health, tool: rows[0].result.tool + why, useWrk, memory };
  } finally {
    try {
      server.child.kill("SIGKILL");
    } catch { /* already stopped */ }
    await server.done;
    await Deno.remove(tmp, { recursive: true });
    await scratch?.drop();
  }
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

function printRouteSummary(rows: RouteRow[], health: LoadResult[]): void {
  const width = Math.max(...rows.map((r) => r.route.length), HEALTH.length + 14) + 2;
  const header = ["req/s", "p50 ms", "p99 ms", "requests", "non-2xx", "health", "% health"];
  console.log(
    `    ${"route".padEnd(width)}${header.map((h) => h.padStart(12)).join("")}    target`,
  );
  const line = (route: string, cells: string[], verdict: string) =>
    console.log(
      `    ${route.padEnd(width)}${cells.map((c) => c.padStart(12)).join("")}    ${verdict}`,
    );
  const range = (values: number[], digits: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    const f = (v: number) => v.toFixed(digits);
    return `${f(sorted[0])}-${f(sorted[sorted.length - 1])}`;
  };
  line(`GET ${HEALTH} (${health.length} runs)`, [
    range(health.map((h) => h.rps), 0),
    range(health.map((h) => h.p50), 2),
    range(health.map((h) => h.p99), 2),
    String(health.reduce((sum, h) => sum + h.requests, 0)),
    String(health.reduce((sum, h) => sum + h.failures, 0)),
    "",
    "",
  ], "");
  let missed = 0;
  for (const { route, result: r, healthRps } of rows) {
    const share = r.rps / healthRps;
    const ok = share >= TARGETS.routeShare;
    if (!ok) missed++;
    line(route, [
      String(Math.round(r.rps)),
      ms(r.p50, 2),
      ms(r.p99, 2),
      String(r.requests),
      String(r.failures),
      String(Math.round(healthRps)),
      `${Math.round(share * 100)}%`,
    ], ok ? "met" : "NOT met");
  }
  console.log(
    `  health: req/s of the health runs just before and after the route (mean); target: ` +
      `every market route >= ${TARGETS.routeShare * 100}% of it -> ` +
      (missed ? `NOT met on ${missed} of ${rows.length} routes` : "met"),
  );
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
  let routes: Awaited<ReturnType<typeof routesPart>> | null = null;
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
  if (routes) {
    console.log(
      `  routes over the ${ROUTE_SIZE} artifact, ${options.connections} connections, ` +
        `${options.seconds} s per route after ${WARMUP_ROUNDS} warm-up rounds of ${options.warmup} s ` +
        `on every route; load: ${routes.tool}`,
    );
    if (!routes.useWrk) console.log("  (the generator runs in this process and shares the CPUs)");
    printRouteSummary(routes.rows, routes.health);
    console.log(
      `  server memory: RSS ${mb(routes.memory.rss)} at the end, peak (VmHWM) ` +
        `${mb(routes.memory.peak)}`,
    );
  }
  const failedBuilds = builds.filter((b) => !b.run.ok);
  for (const b of failedBuilds) {
    console.log(`\n  ${b.run.label} failed (exit ${b.run.code}); its last lines:`);
    for (const line of b.run.tail.slice(-15)) console.log(`    ${line}`);
  }
  const failedRoutes = [
    ...routes?.rows.filter((r) => r.result.failures > 0).map((r) => r.route) ?? [],
    ...routes?.health.some((h) => h.failures > 0) ? [`GET ${HEALTH}`] : [],
  ];
  if (failedRoutes.length) console.log(`  non-2xx answers on ${failedRoutes.join(", ")}`);
  // A missed target is reported above, not a failure of the bench.
  return failedBuilds.length || failedRoutes.length ? 1 : 0;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
