/**
 * Hot-swap stall bench: starts serve/main.ts (embedded PGlite in a temporary DATA_DIR) on an
 * artifacts folder holding two taxonomy versions, moves `current` between them N times, and
 * while each swap loads polls `GET /health/live` every 10 ms (one probe at a time, as a liveness
 * probe would) and, with --load C, keeps C more concurrent request loops on it. It prints each
 * swap's load time, worst probe wait, worst loaded-request latency, requests over 1 s, and the
 * server's RSS (sampled every 10 ms) during the swap.
 *
 *   deno task bench:swap [--artifacts ./data/swap-artifacts] [--swaps 6] [--load 32]
 *
 * The folder needs `taxonomy/<a>/` and `taxonomy/<b>/` (two full builds, see README); the bench
 * rewrites its `current` pointer and leaves it where it started.
 */
import { join, resolve } from "node:path";
import { freePort, memoryOf, waitReady } from "./load.ts";
import { startServer } from "./platform.ts";
import { flagReader } from "./beside_health.ts";
import { stopClean } from "./serve.ts";
import { readPointer, writePointer } from "../build/publish.ts";

const PROBE_EVERY_MS = 10;
/** A probe or request slower than this counts as a client timeout (a 1 s liveness probe). */
const TIMEOUT_MS = 1_000;

/** What one swap measured. */
interface SwapResult {
  to: string;
  loadMs: number;
  worstProbeMs: number;
  probes: number;
  worstLoadedMs: number;
  loaded: number;
  overTimeout: number;
  peakRssMiB: number;
}

/** Taxonomy versions in the folder, pointer target first. */
async function versionsOf(taxonomyDir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(taxonomyDir)) {
    if (entry.isDirectory && !entry.name.startsWith(".")) out.push(entry.name);
  }
  return out.sort();
}

/** The taxonomy version /health/ready reports. */
async function servedVersion(base: string): Promise<string | null> {
  const body = await (await fetch(`${base}/health/ready`)).json();
  const taxonomy = body.checks?.artifacts?.find?.((a: { name: string }) => a.name === "taxonomy");
  return taxonomy?.version ?? null;
}

/** One GET, its wall time in milliseconds (the body is read). */
async function timed(url: string): Promise<number> {
  const t0 = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - t0;
}

/** Moves the pointer to `to` and measures until the server serves it. */
async function swap(
  base: string,
  taxonomyDir: string,
  to: string,
  pid: number,
  load: number,
): Promise<SwapResult> {
  let done = false;
  let worstProbeMs = 0;
  let probes = 0;
  let worstLoadedMs = 0;
  let loaded = 0;
  let overTimeout = 0;
  let peakRss = memoryOf(pid).rss;
  const live = `${base}/health/live`;
  const prober = (async () => {
    while (!done) {
      const ms = await timed(live);
      probes++;
      worstProbeMs = Math.max(worstProbeMs, ms);
      if (ms > TIMEOUT_MS) overTimeout++;
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  })();
  const loops = Array.from({ length: load }, async () => {
    while (!done) {
      const ms = await timed(live);
      loaded++;
      worstLoadedMs = Math.max(worstLoadedMs, ms);
      if (ms > TIMEOUT_MS) overTimeout++;
    }
  });
  const sampler = setInterval(() => peakRss = Math.max(peakRss, memoryOf(pid).rss), 10);
  const t0 = performance.now();
  await writePointer(taxonomyDir, to);
  while (await servedVersion(base) !== to) {
    if (performance.now() - t0 > 60_000) throw new Error(`version ${to} not served in 60 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const loadMs = performance.now() - t0;
  // Keep probing a little: collection of the retired version happens after the switch.
  await new Promise((r) => setTimeout(r, 500));
  done = true;
  clearInterval(sampler);
  await Promise.all([prober, ...loops]);
  return {
    to,
    loadMs,
    worstProbeMs,
    probes,
    worstLoadedMs,
    loaded,
    overTimeout,
    peakRssMiB: peakRss / 1024,
  };
}

/** Runs the swaps and prints one line each, then the ranges. */
async function main(args: string[]): Promise<void> {
  const { value, count } = flagReader(args);
  const artifacts = resolve(value("--artifacts") ?? "./data/swap-artifacts");
  const swaps = count("--swaps", 6);
  const load = count("--load", 0, 0);
  const taxonomyDir = join(artifacts, "taxonomy");
  const versions = await versionsOf(taxonomyDir);
  if (versions.length < 2) {
    throw new Error(`${taxonomyDir} needs two versions to swap between (has ${versions.length})`);
  }
  const start = await readPointer(taxonomyDir);
  const [a, b] = versions.includes(start ?? "")
    ? [start!, versions.find((v) => v !== start)!]
    : versions;
  await writePointer(taxonomyDir, a);
  const tmp = await Deno.makeTempDir({ prefix: "bench-swap-" });
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer({
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: tmp,
    ARTIFACTS_DIR: artifacts,
    BOOTSTRAP_POSTINGS: "",
    BOOTSTRAP_EVIDENCE: "",
    LOG_LEVEL: "warn",
  });
  const results: SwapResult[] = [];
  try {
    await waitReady(server, base);
    const pid = server.child.pid;
    console.log(
      `swap bench: deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} CPUs; ` +
        `${artifacts}: ${a} <-> ${b}; ${swaps} swaps; /health/live probed every ` +
        `${PROBE_EVERY_MS} ms` + (load ? ` plus ${load} concurrent request loops` : ""),
    );
    console.log(`  idle RSS ${(memoryOf(pid).rss / 1024).toFixed(0)} MiB (pid ${pid})`);
    for (let i = 0; i < swaps; i++) {
      const r = await swap(base, taxonomyDir, i % 2 === 0 ? b : a, pid, load);
      results.push(r);
      console.log(
        `  swap ${i + 1} to ${r.to}: served after ${r.loadMs.toFixed(0)} ms; worst probe ` +
          `${r.worstProbeMs.toFixed(1)} ms of ${r.probes}` +
          (load ? `; worst loaded request ${r.worstLoadedMs.toFixed(1)} ms of ${r.loaded}` : "") +
          `; over ${TIMEOUT_MS} ms: ${r.overTimeout}; peak RSS ${r.peakRssMiB.toFixed(0)} MiB`,
      );
      await new Promise((r) => setTimeout(r, 1_000));
    }
  } finally {
    await stopClean(server).catch((error) => console.error(String(error)));
    if (start) await writePointer(taxonomyDir, start);
    await Deno.remove(tmp, { recursive: true });
  }
  const range = (xs: number[], digits = 0) =>
    `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;
  console.log(
    `  ranges: worst probe ${range(results.map((r) => r.worstProbeMs), 1)} ms, load ` +
      `${range(results.map((r) => r.loadMs))} ms, peak RSS ` +
      `${range(results.map((r) => r.peakRssMiB))} MiB, requests over ${TIMEOUT_MS} ms: ` +
      `${results.reduce((n, r) => n + r.overTimeout, 0)}`,
  );
}

if (import.meta.main) await main(Deno.args);
