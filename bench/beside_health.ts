/**
 * Throughput of some runtime routes beside `GET /api/v1/health` in the same run, on the real
 * server: serve/main.ts over loopback on an artifacts folder, embedded PGlite in a temporary
 * DATA_DIR (or a scratch database on the DATABASE_URL server when set), a runtime key signed up
 * over HTTP whose limits are raised with the operator task, each route checked once, then warm-up
 * rounds over every route, then health before the first route and after each one; a route is
 * compared with the mean req/s of the health runs around it. wrk (-t1) drives the load, or
 * bench/load.ts without it. Used by bench/market.ts and bench/workforce.ts.
 */
import { createScratchDatabase } from "../serve/stores/postgres.ts";
import { fetchLoad, freePort, hasWrk, type LoadResult, memoryOf, wrkLoad } from "./load.ts";
import {
  benchServerEnv,
  callJson,
  disposeServer,
  mb,
  ms,
  raiseLimits,
  type Send,
  signUp,
  tokenFromOutbox,
} from "./platform.ts";
import { startReady, stopClean } from "./serve.ts";

export const HEALTH = "/api/v1/health";
/** Rounds of warm-up over every route before the server is measured. */
export const WARMUP_ROUNDS = 2;
/** Target: each route sustains at least this share of health's req/s ("within 20%"). */
export const ROUTE_SHARE = 0.8;

/** Settings of the load runs. */
export interface LoadFlags {
  seconds: number;
  warmup: number;
  connections: number;
  allowWrk: boolean;
}

/** Reads `--flag value` or `--flag=value`, and whole numbers of them, from args. */
export function flagReader(args: string[]) {
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
  return { value, count };
}

/** --quick (3 s runs, 1 s warm-up), --seconds N (5), --connections N (32), --no-wrk. */
export function parseLoadFlags(args: string[]): LoadFlags {
  const { count } = flagReader(args);
  const quick = args.includes("--quick");
  return {
    seconds: count("--seconds", quick ? 3 : 5),
    warmup: quick ? 1 : 2,
    connections: count("--connections", 32),
    allowWrk: !args.includes("--no-wrk"),
  };
}

/** The 1, 5 and 15 minute load averages: other work on the machine skews the timings. */
export async function loadAverage(): Promise<string> {
  const text = await Deno.readTextFile("/proc/loadavg").catch(() => "n/a");
  return text.split(" ").slice(0, 3).join(" ");
}

/** An artifact the server reports loaded in `GET /api/v1/health`. */
export interface LoadedArtifact {
  name: string;
  version: string;
}

/** What the routes part needs to know. */
export interface BesideHealthSpec {
  /** Names the scratch database (`bench_<name>`) and temporary folder. */
  name: string;
  /** What the run is over, shown in the start line: `over <artifacts> (<about>)`. */
  about: string;
  artifacts: string;
  routes: string[];
  /** Added to (and overriding) the server's environment. */
  env?: Record<string, string>;
  /**
   * Checks one route's 200 body, given the health body; returns what to log after `200, `, and
   * throws when the answer is not the expected one.
   */
  // deno-lint-ignore no-explicit-any
  check: (path: string, body: any, health: { artifacts?: LoadedArtifact[] }) => string;
}

/** One measured route. */
export interface RouteRow {
  route: string;
  result: LoadResult;
  /** Mean req/s of the health runs just before and just after this route's run. */
  healthRps: number;
}

/** What the routes part measured. */
export interface RoutesRun {
  rows: RouteRow[];
  health: LoadResult[];
  tool: string;
  useWrk: boolean;
  memory: { rss: number; peak: number };
}

/** Starts the server, signs up, checks, warms up and measures every route beside health. */
export async function measureBesideHealth(
  spec: BesideHealthSpec,
  options: LoadFlags,
): Promise<RoutesRun> {
  const useWrk = options.allowWrk && await hasWrk();
  const load = useWrk ? wrkLoad : fetchLoad;
  const scratch = Deno.env.get("DATABASE_URL")
    ? await createScratchDatabase(Deno.env.get("DATABASE_URL")!, `bench_${spec.name}`)
    : null;
  const tmp = await Deno.makeTempDir({ prefix: `bench-${spec.name}-serve-` });
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    ...benchServerEnv(tmp, port, spec.artifacts, scratch?.url ?? ""),
    ...spec.env,
  };
  console.log(
    `\nroutes: serve/main.ts on ${base} over ${spec.artifacts} (${spec.about}), ` +
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

    const status = await callJson(send, "GET", HEALTH, undefined, key);
    for (const path of spec.routes) {
      const body = await callJson(send, "GET", path, undefined, key);
      console.log(`  check GET ${path} -> 200, ${spec.check(path, body, status)}`);
    }
    const loaded = (status.artifacts ?? []).map((a: LoadedArtifact) => `${a.name} ${a.version}`);
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
      for (const path of [HEALTH, ...spec.routes]) await run(path, options.warmup);
    }
    console.log(
      `  warm-up: ${WARMUP_ROUNDS} rounds of ${options.warmup} s on every route ` +
        `(${((performance.now() - t0) / 1000).toFixed(0)} s)`,
    );
    // Health before and after each route, so each is compared with its neighbours rather than
    // with one health figure from a different moment.
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
    for (const path of spec.routes) {
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
    await disposeServer(server, tmp, scratch);
  }
}

/** The table of health and the routes, each with its % of health and the verdict. */
export function printRouteSummary(rows: RouteRow[], health: LoadResult[], kind: string): void {
  const width = Math.max(...rows.map((r) => r.route.length), HEALTH.length + 14) + 2;
  const header = ["req/s", "p50 ms", "p99 ms", "requests", "non-2xx", "health", "% health"];
  // A space before every cell keeps a long range ("25.64-102.18") apart from its neighbour.
  const cellsOf = (cells: string[]) => cells.map((c) => ` ${c.padStart(11)}`).join("");
  console.log(`    ${"route".padEnd(width)}${cellsOf(header)}    target`);
  const line = (route: string, cells: string[], verdict: string) =>
    console.log(`    ${route.padEnd(width)}${cellsOf(cells)}    ${verdict}`);
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
    const ok = share >= ROUTE_SHARE;
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
      `every ${kind} route >= ${ROUTE_SHARE * 100}% of it -> ` +
      (missed ? `NOT met on ${missed} of ${rows.length} routes` : "met"),
  );
}

/**
 * The routes part of a summary: the settings line (`routes <where>, …`), the table and the
 * server's memory.
 */
export function printRoutesReport(
  run: RoutesRun,
  options: LoadFlags,
  where: string,
  kind: string,
): void {
  console.log(
    `  routes ${where}, ${options.connections} connections, ` +
      `${options.seconds} s per route after ${WARMUP_ROUNDS} warm-up rounds of ${options.warmup} s ` +
      `on every route; load: ${run.tool}`,
  );
  if (!run.useWrk) console.log("  (the generator runs in this process and shares the CPUs)");
  printRouteSummary(run.rows, run.health, kind);
  console.log(
    `  server memory: RSS ${mb(run.memory.rss)} at the end, peak (VmHWM) ` +
      `${mb(run.memory.peak)}`,
  );
}

/** The routes (health included) that answered anything but 2xx in a measured run. */
export function failedRoutes(run: RoutesRun | null): string[] {
  return [
    ...run?.rows.filter((r) => r.result.failures > 0).map((r) => r.route) ?? [],
    ...run?.health.some((h) => h.failures > 0) ? [`GET ${HEALTH}`] : [],
  ];
}
