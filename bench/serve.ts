/**
 * `deno task bench:serve`: throughput, latency and memory of the occupation routes on the real
 * server (serve/main.ts over loopback, the taxonomy artifact in ./artifacts), on embedded PGlite
 * in a temporary DATA_DIR and then, when DATABASE_URL names a server, on a scratch database
 * there, in the same run. Bodies are real posting titles read from ../shared/data/postings at
 * start. Each POST route runs against a server with the default ranking cache fed the postings in
 * file order ("stream": repeats as they occur) and against one started with
 * OCCUPATION_CACHE_SIZE=0 fed 2,000 distinct titles ("uncached", every request ranks). Each
 * server also answers GET /health/live and GET /api/v1/health (the runtime key, limits and
 * metering, nothing else) first in the same run, and the stream server the occupation summary and
 * profile, cycling every O*NET code of the release (read from the artifact at start). The restart
 * into the uncached server is timed from spawn to /health/ready (the start target).
 * Load: wrk (-t1, a generated Lua script cycles the bodies) or bench/load.ts without it.
 * Flags: --quick (3 s runs), --seconds N, --connections N, --no-wrk.
 */
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { TITLE_MAX } from "../serve/occupation/schemas.ts";
import { createScratchDatabase } from "../serve/stores/postgres.ts";
import {
  cpuPerRequest,
  fetchLoad,
  freePort,
  hasWrk,
  type LoadOptions,
  type LoadResult,
  memoryOf,
  type ServerProcess,
  stopServer,
  type ThreadCpu,
  threadCpuOf,
  waitReady,
  wrkLoad,
} from "./load.ts";
import {
  benchServerEnv,
  callJson,
  disposeServer,
  mb,
  ms,
  raiseLimits,
  type Send,
  signUp,
  startServer,
  tokenFromOutbox,
} from "./platform.ts";
import { parseCsvText } from "../build/market/csv.ts";

const ROOT = new URL("..", import.meta.url).pathname;
/** 33,246 LinkedIn US postings (2023), title column included; read in place, never copied. */
const POSTINGS = join(
  ROOT,
  "../shared/data/postings/linkedin_2023_arshkon_v1_nodesc/job_postings.csv",
);
const MAX_TITLES = 2_000;
const WARMUP_SECONDS = 2;
/** Load on a freshly started server before anything is measured. */
const SERVER_WARMUP_SECONDS = 5;
/** A title that must give a non-empty shortlist; checked before any measurement. */
const CHECK_TITLE = "Senior Software Engineer";
const CANDIDATES = "/api/v1/occupation/candidates";
const ANALYZE = "/api/v1/job/analyze";
const CLASSIFY = "/api/v1/job/classify";
const HEALTH = "/api/v1/health";
const SUMMARY = "/api/v1/occupation/{onet_code}";
const PROFILE = "/api/v1/occupation/profile/{onet_code}";
/** Issue 12's targets at 32 connections (candidates' p99 and req/s are for the uncached run). */
const TARGETS = {
  candidatesRps: 4_000,
  candidatesP99: 15,
  jobRps: 3_000,
  readRps: 5_000,
  memoryMb: 400,
  startSeconds: 2,
};

/** Settings of a run, from the command line. */
export interface BenchOptions {
  seconds: number;
  connections: number;
  allowWrk: boolean;
}

/**
 * uncached: distinct titles against a server with OCCUPATION_CACHE_SIZE=0 (every request ranks);
 * stream: the postings' titles in file order, natural repeats included, against the default
 * cache. Its warm-up sends the first WARMUP_STREAM titles (earlier traffic), the measured run the
 * rest (wrapping around when it runs out).
 */
type Mode = "uncached" | "stream";
type Database = "embedded" | "postgres";
const LIVE = "/health/live";
const WARMUP_STREAM = 8_000;

/** One measured route: which, against which server, and what the load run saw. */
interface Row {
  route: string;
  /** Which database the server used: embedded PGlite or the DATABASE_URL server. */
  db: Database;
  /** The server the route ran on: the stream one (default cache) or the uncached one. */
  mode: Mode;
  result: LoadResult;
  /** The server's VmHWM (kB) once this route's run ended. */
  peakKb: number;
  /** CPU per request of the request thread, the workers and the other threads (µs). */
  cpu: ThreadCpu;
}

/** Parses --quick, --seconds N, --connections N (also `--flag=N`) and --no-wrk. */
export function parseArgs(args: string[]): BenchOptions {
  const value = (flag: string): string | undefined => {
    const inline = args.find((a) => a.startsWith(`${flag}=`));
    if (inline) return inline.slice(flag.length + 1);
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const count = (flag: string, fallback: number): number => {
    const text = value(flag);
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} needs a positive integer`);
    return n;
  };
  return {
    seconds: count("--seconds", args.includes("--quick") ? 3 : 10),
    connections: count("--connections", 32),
    allowWrk: !args.includes("--no-wrk"),
  };
}

/**
 * Up to `max` distinct titles of the CSV's `title` column in file order, whitespace collapsed,
 * only those the API accepts (1 to TITLE_MAX characters).
 */
export function postingTitles(csv: string, max = MAX_TITLES): string[] {
  return [...new Set(postingStream(csv))].slice(0, max);
}

/** Every title of the CSV's `title` column in file order (repeats kept), as postingTitles. */
export function postingStream(csv: string): string[] {
  const [header, ...rows] = parseCsvText(csv);
  const column = header.indexOf("title");
  if (column < 0) throw new Error(`no title column in [${header.join(", ")}]`);
  return rows.map((row) => (row[column] ?? "").replace(/\s+/g, " ").trim())
    .filter((title) => title.length >= 1 && title.length <= TITLE_MAX);
}

/** Fails loudly unless one candidates request answers 200 with a non-empty shortlist. */
async function checkCandidates(send: Send, key: string): Promise<string> {
  const body = { title: CHECK_TITLE, limit: 5 };
  const answer = await callJson(send, "POST", CANDIDATES, body, key);
  const candidates: { onet_code: string; title: string }[] = answer.candidates ?? [];
  if (candidates.length === 0) {
    throw new Error(
      `POST ${CANDIDATES} "${CHECK_TITLE}": no candidates: ${JSON.stringify(answer)}`,
    );
  }
  return `${candidates[0].onet_code} ${candidates[0].title}`;
}

/**
 * Warms `path` up for WARMUP_SECONDS (with warmBodies when given), then measures it, with the CPU
 * each kind of the server's threads spent per request of the measured run.
 */
async function measure(
  load: (url: string, options: LoadOptions) => Promise<LoadResult>,
  pid: number,
  url: string,
  options: LoadOptions,
  warmBodies?: string[],
): Promise<{ result: LoadResult; cpu: ThreadCpu }> {
  await load(url, { ...options, seconds: WARMUP_SECONDS, bodies: warmBodies ?? options.bodies });
  const before = threadCpuOf(pid);
  const result = await load(url, options);
  return { result, cpu: cpuPerRequest(before, threadCpuOf(pid), result.requests) };
}

/** Runs the routes against one server and returns a row per route. */
async function runRoutes(
  load: (url: string, options: LoadOptions) => Promise<LoadResult>,
  server: ServerProcess,
  base: string,
  key: string,
  titles: string[],
  options: BenchOptions,
  mode: Mode,
  codes: string[],
  db: Database,
): Promise<Row[]> {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const warm = mode === "stream" ? titles.slice(0, WARMUP_STREAM) : titles;
  const measured = mode === "stream" ? titles.slice(WARMUP_STREAM) : titles;
  const candidates = (list: string[]) => list.map((title) => JSON.stringify({ title, limit: 5 }));
  const jobs = (list: string[]) => list.map((title) => JSON.stringify({ title }));
  const routes: {
    route: string;
    path: string;
    bodies?: string[];
    warm?: string[];
    paths?: string[];
  }[] = [
    { route: `GET ${LIVE}`, path: LIVE },
    { route: `GET ${HEALTH}`, path: HEALTH },
    {
      route: `POST ${CANDIDATES}`,
      path: CANDIDATES,
      bodies: candidates(measured),
      warm: candidates(warm),
    },
    { route: `POST ${ANALYZE}`, path: ANALYZE, bodies: jobs(measured), warm: jobs(warm) },
    { route: `POST ${CLASSIFY}`, path: CLASSIFY, bodies: jobs(measured), warm: jobs(warm) },
  ];
  if (mode === "stream") {
    for (const template of [SUMMARY, PROFILE]) {
      const paths = codes.map((code) => template.replace("{onet_code}", code));
      routes.push({ route: `GET ${template}`, path: paths[0], paths });
    }
  }
  const rows: Row[] = [];
  for (const { route, path, bodies, warm: warmBodies, paths } of routes) {
    const { connections, seconds } = options;
    const { result, cpu } = await measure(load, server.child.pid, `${base}${path}`, {
      connections,
      seconds,
      headers: bodies ? headers : { authorization: headers.authorization },
      bodies,
      paths,
    }, warmBodies);
    const peakKb = memoryOf(server.child.pid).peak;
    rows.push({ route, db, mode, result, peakKb, cpu });
    console.log(`    ${route} (${db}, ${mode}): ${Math.round(result.rps)} req/s`);
  }
  return rows;
}

/** Prints the results: route and cache mode left-aligned, the figures right-aligned. */
function printTable(rows: Row[]): void {
  const header = [
    "route",
    "database",
    "server",
    "req/s",
    "p50 ms",
    "p99 ms",
    "requests",
    "non-2xx",
    "VmHWM",
    "µs main/wk/other",
  ];
  const lines = rows.map(({ route, db, mode, result: r, peakKb, cpu }) => [
    route,
    db,
    mode,
    String(Math.round(r.rps)),
    ms(r.p50, 2),
    ms(r.p99, 2),
    String(r.requests),
    String(r.failures),
    mb(peakKb),
    [cpu.main, cpu.workers, cpu.other].map((x) => Math.round(x)).join("/"),
  ]);
  const width = Math.max(...[header, ...lines].map((cells) => cells[0].length)) + 2;
  for (const [route, db, mode, ...figures] of [header, ...lines]) {
    const right = figures.map((c, i) => c.padStart(i === figures.length - 1 ? 18 : 10)).join("");
    console.log(`    ${route.padEnd(width)}${db.padEnd(10)}${mode.padEnd(9)}${right}`);
  }
}

/** Prints the targets with met / NOT met for the rows they concern. */
function printTargets(
  rows: Row[],
  peaks: { db: Database; kb: number }[],
  starts: { db: Database; seconds: number }[],
  connections: number,
): void {
  const verdict = (ok: boolean) => ok ? "met" : "NOT met";
  const at = connections === 32 ? "" : ` (stated at 32 connections; this run used ${connections})`;
  console.log(`  targets${at}:`);
  for (const { route, db, mode, result: r } of rows) {
    const rps = `${Math.round(r.rps)} req/s (${db})`;
    if (route.endsWith(CANDIDATES) && mode === "uncached") {
      const ok = r.rps >= TARGETS.candidatesRps && r.p99 <= TARGETS.candidatesP99;
      console.log(
        `    candidates >= ${TARGETS.candidatesRps} req/s with p99 <= ${TARGETS.candidatesP99} ms` +
          ` (${mode}): ${rps}, p99 ${ms(r.p99, 2)} ms -> ${verdict(ok)}`,
      );
    } else if (route.endsWith(ANALYZE) || route.endsWith(CLASSIFY)) {
      console.log(
        `    ${route} >= ${TARGETS.jobRps} req/s (${mode}): ${rps} -> ` +
          verdict(r.rps >= TARGETS.jobRps),
      );
    } else if (route.endsWith(SUMMARY) || route.endsWith(PROFILE)) {
      console.log(
        `    ${route} >= ${TARGETS.readRps} req/s: ${rps} -> ${verdict(r.rps >= TARGETS.readRps)}`,
      );
    }
  }
  for (const { db, kb } of peaks) {
    console.log(
      `    server memory <= ${TARGETS.memoryMb} MiB (${db}): peak ${mb(kb)} -> ` +
        verdict(kb / 1024 <= TARGETS.memoryMb),
    );
  }
  for (const { db, seconds } of starts) {
    console.log(
      `    ready within ${TARGETS.startSeconds} s of start (${db}, artifact and database ` +
        `already there): ${seconds.toFixed(1)} s -> ${verdict(seconds <= TARGETS.startSeconds)}`,
    );
  }
  const embedded = rows.filter((r) => r.db === "embedded");
  for (const r of rows.filter((r) => r.db === "postgres")) {
    const twin = embedded.find((e) => e.route === r.route && e.mode === r.mode);
    if (!twin) continue;
    console.log(
      `    postgres at least as fast as embedded, ${r.route} (${r.mode}): ` +
        `${Math.round(r.result.rps)} vs ${Math.round(twin.result.rps)} req/s -> ` +
        verdict(r.result.rps >= twin.result.rps),
    );
  }
}

/** Starts the server with `env` and waits until it is ready; logs how long that took. */
export async function startReady(
  env: Record<string, string>,
  base: string,
): Promise<ServerProcess> {
  const t0 = performance.now();
  const server = startServer(env);
  await waitReady(server, base);
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(`  server ready in ${seconds} s (pid ${server.child.pid})`);
  return server;
}

/** Stops the server with SIGTERM; throws with its output unless it exits with 0. */
export async function stopClean(server: ServerProcess): Promise<void> {
  const code = await stopServer(server);
  if (code !== 0) throw new Error(`server exited with ${code}:\n${server.output.join("")}`);
}

/** Every O*NET code of the artifact's release, in code order. */
async function onetCodes(artifactDir: string): Promise<string[]> {
  const instance = await DuckDBInstance.create(join(artifactDir, "taxonomy.duckdb"), {
    access_mode: "READ_ONLY",
  });
  try {
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll(
      "SELECT onet_code FROM occupations ORDER BY onet_code",
    );
    connection.closeSync();
    return reader.getRowsJS().map(([code]) => String(code));
  } finally {
    instance.closeSync();
  }
}

/** Reads the titles, starts the server, signs up, measures both cache modes and reports. */
export async function main(args: string[]): Promise<void> {
  const options = parseArgs(args);
  const csv = await Deno.readTextFile(POSTINGS);
  const titles = postingTitles(csv);
  const stream = postingStream(csv);
  if (titles.length < 100) throw new Error(`only ${titles.length} titles in ${POSTINGS}`);
  const useWrk = options.allowWrk && await hasWrk();
  const load = useWrk ? wrkLoad : fetchLoad;
  console.log(
    `serve bench: deno ${Deno.version.deno}, ${Deno.build.os} ${Deno.build.arch}, ` +
      `${navigator.hardwareConcurrency} CPUs; ${options.connections} connections, ` +
      `${options.seconds} s per route after ${WARMUP_SECONDS} s warm-up`,
  );
  console.log(
    `  ${POSTINGS}: uncached runs cycle ${titles.length} distinct titles; stream runs send ` +
      `${stream.length} titles in file order (${new Set(stream).size} distinct), the first ` +
      `${WARMUP_STREAM} as warm-up`,
  );
  const version = (await Deno.readTextFile(join(ROOT, "artifacts/taxonomy/current"))).trim();
  const codes = await onetCodes(join(ROOT, "artifacts/taxonomy", version));
  const postgresUrl = Deno.env.get("DATABASE_URL");
  const databases: Database[] = postgresUrl ? ["embedded", "postgres"] : ["embedded"];
  if (!postgresUrl) {
    console.log(
      "  database: embedded PGlite only; set DATABASE_URL (a role that may create databases) to " +
        "also measure the Postgres mode in the same run",
    );
  }
  const rows: Row[] = [];
  const peaks: { db: Database; kb: number }[] = [];
  const starts: { db: Database; seconds: number }[] = [];
  for (const db of databases) {
    console.log(`\n  ${db}: taxonomy ${version} (${codes.length} occupations)`);
    const measured = await benchDatabase(db, postgresUrl, {
      load,
      options,
      titles,
      stream,
      codes,
    });
    rows.push(...measured.rows);
    peaks.push({ db, kb: measured.peakKb });
    starts.push({ db, seconds: measured.startSeconds });
  }

  const why = useWrk ? "" : options.allowWrk ? " (wrk is not on PATH)" : " (--no-wrk)";
  const tools = [...new Set(rows.map((r) => r.result.tool))];
  console.log(`\n  load: ${tools.join("; ")}${why}`);
  if (!useWrk) console.log("  (the generator runs in this process and shares the CPUs)");
  printTable(rows);
  console.log(
    `  VmHWM: the server's peak RSS so far, read from /proc/<pid>/status after each run\n` +
      "  µs main/wk/other: CPU per request of the measured run (/proc/<pid>/task/*/stat): the " +
      "request thread, the workers (ranking; PGlite with PGLITE_WORKER), the rest (V8's GC and " +
      "compiler threads, I/O). Steadier than req/s on a machine the load generator shares.",
  );
  printTargets(rows, peaks, starts, options.connections);
  const classify = rows.filter((r) => r.route.endsWith(CLASSIFY) && r.result.failures > 0);
  if (classify.length > 0) {
    console.log(
      "  classify answers 422 (insufficient_input) when a title grounds no occupation, so " +
        "its non-2xx are expected",
    );
  }
  const failed = rows.filter((r) => !r.route.endsWith(CLASSIFY) && r.result.failures > 0);
  if (failed.length > 0) {
    throw new Error(`non-2xx answers on ${failed.map((r) => `${r.route} (${r.mode})`)}`);
  }
}

/** What one database mode needs from main. */
interface BenchInputs {
  load: (url: string, options: LoadOptions) => Promise<LoadResult>;
  options: BenchOptions;
  titles: string[];
  stream: string[];
  codes: string[];
}

/**
 * Measures every route on servers over one database: the stream server (default cache), then
 * the uncached one. The start time is measured on the restart after the key's limits were
 * raised, when the artifacts and the database already exist (issue 12's start target).
 */
async function benchDatabase(
  db: Database,
  postgresUrl: string | undefined,
  { load, options, titles, stream, codes }: BenchInputs,
): Promise<{ rows: Row[]; peakKb: number; startSeconds: number }> {
  // On a real server each run gets a database of its own, dropped at the end: usage records
  // left by earlier runs would otherwise slow the next one.
  const scratch = db === "postgres"
    ? await createScratchDatabase(postgresUrl!, "bench_serve")
    : null;
  const tmp = await Deno.makeTempDir({ prefix: "bench-serve-" });
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = benchServerEnv(tmp, port, join(ROOT, "artifacts"), scratch?.url ?? "");
  console.log(
    `  serve/main.ts on ${base}; database: ` +
      (scratch ? "a new database on the DATABASE_URL server" : `embedded PGlite in ${tmp}`),
  );
  let server = await startReady(env, base);
  try {
    const email = `bench-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const send: Send = (path, init) => fetch(`${base}${path}`, init);
    const { key } = await signUp(send, email, () => tokenFromOutbox(env.MAIL_OUTBOX_DIR, email));
    console.log(`  signed up ${email} over HTTP (verification link read from the .eml outbox)`);
    server = await raiseLimits(server, email, env);

    const rows: Row[] = [];
    const peaks: string[] = [];
    let peakKb = 0;
    let startSeconds = 0;
    for (const mode of ["stream", "uncached"] as const) {
      if (mode === "uncached") {
        await stopClean(server);
        const t0 = performance.now();
        server = await startReady({ ...env, OCCUPATION_CACHE_SIZE: "0" }, base);
        startSeconds = (performance.now() - t0) / 1000;
      }
      const ready = memoryOf(server.child.pid);
      const top = await checkCandidates(send, key);
      console.log(
        `  ${mode} (OCCUPATION_CACHE_SIZE=${mode === "stream" ? "default" : "0"}): ` +
          `check "${CHECK_TITLE}" -> 200, first candidate ${top}; server RSS ${mb(ready.rss)}`,
      );
      // A server runs for hours in production: let the JIT and the heap settle first, on
      // earlier traffic (the first WARMUP_STREAM titles, or the distinct ones without cache).
      const warmTitles = mode === "stream" ? stream.slice(0, WARMUP_STREAM) : titles;
      await load(`${base}${ANALYZE}`, {
        connections: options.connections,
        seconds: SERVER_WARMUP_SECONDS,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        bodies: warmTitles.map((title) => JSON.stringify({ title })),
      });
      rows.push(
        ...await runRoutes(
          load,
          server,
          base,
          key,
          mode === "stream" ? stream : titles,
          options,
          mode,
          codes,
          db,
        ),
      );
      const memory = memoryOf(server.child.pid);
      peakKb = Math.max(peakKb, memory.peak);
      peaks.push(`${mode} ${mb(memory.peak)} (RSS at the end ${mb(memory.rss)})`);
    }
    await stopClean(server);
    console.log(`  server peak RSS per server (${db}): ${peaks.join("; ")}`);
    return { rows, peakKb, startSeconds };
  } finally {
    await disposeServer(server, tmp, scratch);
  }
}

if (import.meta.main) {
  await main(Deno.args);
}
