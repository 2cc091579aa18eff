/**
 * `deno task bench:platform`: what authentication, rate limiting and usage metering add to a
 * trivial runtime route. Part 1 times `GET /api/v1/health` (key) against `GET /health/live` (no
 * key) in process with app.request(); part 2 starts the real server and measures throughput on
 * loopback with wrk, or bench/load.ts when wrk is not installed.
 * Part 3 (`--part login-flood`, not in `all`) floods the real server with wrong-password logins
 * from random addresses and emails (wrk, TRUSTED_PROXY_HOPS=1, so no throttle cuts them) and
 * measures GET /api/v1/health (key) alongside, with the argon2 cap off and on.
 * Flags: --quick (smoke run), --part latency|throughput|login-flood|all, --no-wrk (force
 * bench/load.ts), --runs N (login-flood repetitions, default 2).
 * Embedded PGlite in temporary folders by default; with DATABASE_URL both parts use that
 * Postgres and leave their `bench-<id>@example.com` accounts and usage rows in it.
 */
import { join } from "node:path";
import { buildFixture, FIXTURE_ONET, tokenFromEmail } from "../tests/helpers.ts";
import { loadConfig } from "../serve/config.ts";
import { jsonLogger } from "../serve/http/log.ts";
import { type Database, openPglite, openPostgres } from "../serve/stores/postgres.ts";
import { migrate } from "../serve/stores/migrate.ts";
import { ArtifactRegistry } from "../serve/stores/artifacts.ts";
import { taxonomySpec } from "../serve/occupation/artifact.ts";
import { createApp } from "../serve/app.ts";
import { closePlatform, createPlatform } from "../serve/platform/mod.ts";
import { openText } from "../serve/platform/secrets.ts";
import { runAdminCommand } from "../serve/platform/admin.ts";
import {
  fetchLoad,
  freePort,
  hasWrk,
  type LatencySummary,
  type LoadResult,
  memoryOf,
  type ServerProcess,
  startProcess,
  stopServer,
  summarize,
  waitReady,
  wrkLoad,
} from "./load.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const DATABASE_URL = Deno.env.get("DATABASE_URL") || undefined;
const LIVE = "/health/live";
const RUNTIME = "/api/v1/health";
const PASSWORD = "violet-harbour-lantern-42";
export const LIMITS = {
  rate_per_minute: 10_000_000,
  monthly_quota: 2_000_000_000,
  concurrency: 10_000,
};

/** Sends one request to the service: app.request in process, fetch over loopback. */
export type Send = (path: string, init?: RequestInit) => Promise<Response>;

/** Milliseconds with `digits` decimals. */
export const ms = (v: number, digits = 3) => v.toFixed(digits);
/** Kilobytes (what /proc reports, KiB) as whole mebibytes (MiB: the figures printed as "MB" before 2026-11-26 were these). */
export const mb = (kb: number) => `${Math.round(kb / 1024)} MiB`;

/** Prints rows under a header: the first column left-aligned, the others right-aligned. */
function table(header: string[], rows: (string | number)[][]): void {
  for (const cells of [header, ...rows]) {
    const [first, ...rest] = cells.map(String);
    console.log(`    ${first.padEnd(30)}${rest.map((c) => c.padStart(10)).join("")}`);
  }
}

/** Sends a JSON request (optionally with a bearer token); anything but 200 throws. */
export async function callJson(
  send: Send,
  method: string,
  path: string,
  body?: unknown,
  bearer?: string,
) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const response = await send(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** Register -> verification link -> verify -> login -> create key, through the public routes. */
export async function signUp(
  send: Send,
  email: string,
  verificationToken: () => Promise<string>,
): Promise<{ key: string; keyId: number }> {
  const account = { email, password: PASSWORD, full_name: "Bench Mark", company_name: "Bench" };
  await callJson(send, "POST", "/api/v1/platform/register", account);
  const token = encodeURIComponent(await verificationToken());
  const verified = await callJson(send, "GET", `/api/v1/platform/verify-email?token=${token}`);
  if (verified.status !== "verified") throw new Error(`verify-email: ${JSON.stringify(verified)}`);
  const login = await callJson(send, "POST", "/api/v1/platform/login", {
    email,
    password: PASSWORD,
  });
  const created = await callJson(send, "POST", "/api/v1/platform/api-keys/create", {
    name: "bench",
  }, login.access_token);
  return { key: created.key, keyId: created.key_id };
}

/** Per-request latencies (ms) of `count` sequential requests to `path`; any non-200 throws. */
async function timeRequests(send: Send, path: string, headers: HeadersInit, count: number) {
  const samples = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const response = await send(path, { headers });
    await response.arrayBuffer();
    samples[i] = performance.now() - t0;
    if (response.status !== 200) throw new Error(`${path}: status ${response.status}`);
  }
  return samples;
}

/**
 * Warm-up, then alternating blocks of the unauthenticated and the runtime route, so both see
 * the same machine conditions and background writes (metering) land among runtime requests.
 */
async function compareRoutes(send: Send, key: string, warmup: number, count: number) {
  const auth = { authorization: `Bearer ${key}` };
  await timeRequests(send, LIVE, {}, warmup);
  await timeRequests(send, RUNTIME, auth, warmup);
  const rounds = 10;
  const live: number[] = [];
  const runtime: number[] = [];
  for (let r = 0; r < rounds; r++) {
    live.push(...await timeRequests(send, LIVE, {}, count / rounds));
    runtime.push(...await timeRequests(send, RUNTIME, auth, count / rounds));
  }
  return { live: summarize(live), runtime: summarize(runtime) };
}

function printComparison(live: LatencySummary, runtime: LatencySummary, target: boolean): void {
  const cells = (s: LatencySummary) => [s.mean, s.p50, s.p90, s.p99, s.max].map((v) => ms(v));
  table(["route (ms)", "mean", "p50", "p90", "p99", "max"], [
    [`GET ${LIVE} (no key)`, ...cells(live)],
    [`GET ${RUNTIME} (key)`, ...cells(runtime)],
  ]);
  const p50 = runtime.p50 - live.p50;
  const p99 = runtime.p99 - live.p99;
  const verdict = p50 < 1 && p99 < 5 ? "met" : "NOT met";
  console.log(
    `    added latency (auth + limits + metering): p50 +${ms(p50)} ms, p99 +${ms(p99)} ms, ` +
      `mean +${ms(runtime.mean - live.mean)} ms` +
      (target ? ` (target p50 < 1 ms, p99 < 5 ms: ${verdict})` : ""),
  );
}

/** Part 1: the middleware's added latency in process, with a warm and a disabled key cache. */
async function latencyPart(quick: boolean): Promise<void> {
  const [warmup, count] = quick ? [200, 2_000] : [2_000, 20_000];
  const tmp = await Deno.makeTempDir({ prefix: "bench-platform-" });
  let database: Database | undefined;
  let artifacts: ArtifactRegistry | undefined;
  try {
    await buildFixture(join(tmp, "artifacts"));
    database = DATABASE_URL ? openPostgres(DATABASE_URL, 10) : await openPglite(join(tmp, "data"));
    await migrate(database);
    const logger = jsonLogger("warn");
    artifacts = new ArtifactRegistry(join(tmp, "artifacts"), [taxonomySpec], logger);
    await artifacts.start();
    const { db } = database;
    const wire = async (env: Record<string, string> = {}) => {
      const config = loadConfig(env);
      const instanceId = `bench-${crypto.randomUUID()}`;
      const platform = await createPlatform({ db, config, logger, instanceId });
      const app = createApp({
        config,
        database: database!,
        artifacts: artifacts!,
        logger,
        platform,
      });
      const send: Send = (path, init) => Promise.resolve(app.request(path, init));
      return { config, platform, send };
    };
    console.log(
      `\nPart 1: added latency in process (app.request, no network), database: ${database.kind}`,
    );
    console.log(
      `  ${count} sequential requests per route after ${warmup} warm-up each, ` +
        `in 10 alternating blocks; per-request time with performance.now()`,
    );

    const email = `bench-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const signer = await wire();
    const { key, keyId } = await signUp(signer.send, email, async () => {
      await signer.platform.tasks.drain(); // registration writes its email after answering
      const mail = await db.selectFrom("email_outbox").select("body_encrypted")
        .where("recipient", "=", email).where("kind", "=", "verify_email")
        .orderBy("id", "desc").executeTakeFirstOrThrow();
      return tokenFromEmail(await openText(signer.platform.keys.outboxKey, mail.body_encrypted!));
    });
    await closePlatform(signer.platform);
    await runAdminCommand(db, { kind: "limits", email, changes: LIMITS }, new Date());
    console.log(
      `  signed up ${email} through the app (key ${key.slice(0, 8)}…); limits raised with ` +
        `runAdminCommand (operator path): ${LIMITS.rate_per_minute}/min, ` +
        `${LIMITS.monthly_quota}/month, concurrency ${LIMITS.concurrency}`,
    );

    const variants: { label: string; env: Record<string, string>; target: boolean }[] = [
      { label: "warm key cache", env: {}, target: true },
      {
        label: "cold key cache, a database lookup on every request",
        env: { KEY_CACHE_TTL_MS: "0" },
        target: false,
      },
    ];
    for (const variant of variants) {
      const { config, platform, send } = await wire(variant.env);
      console.log(`\n  ${variant.label} (KEY_CACHE_TTL_MS=${config.KEY_CACHE_TTL_MS})`);
      const result = await compareRoutes(send, key, warmup, count);
      await closePlatform(platform); // flushes the usage records still buffered
      printComparison(result.live, result.runtime, variant.target);
    }
    console.log(
      "  The /api/v1/health handler only reads artifact status, so the difference between the\n" +
        "  two routes is essentially the platform middleware (key check and lookup, limit gate,\n" +
        "  usage meter).",
    );

    const rows = await db.selectFrom("usage_minutes").select(["status"])
      .select((eb) => eb.fn.sum<string>("requests").as("n"))
      .where("key_id", "=", String(keyId)).groupBy("status").execute();
    const written = rows.reduce((sum, r) => sum + Number(r.n), 0);
    const expected = variants.length * (warmup + count);
    const byStatus = rows.map((r) => `${r.n} x ${r.status}`).join(", ");
    console.log(
      `  requests counted in usage_minutes for the key after closePlatform: ${written} (${byStatus}); ` +
        `requests made: ${expected} -> ${written === expected ? "all metered" : "MISMATCH"}`,
    );
    if (written !== expected) throw new Error("usage records are missing");
  } finally {
    await artifacts?.close();
    await database?.close();
    await Deno.remove(tmp, { recursive: true });
  }
}

/**
 * The V8 flags `deno task serve` runs with (deno.json), so benches measure the same server.
 * `--no-wasm-tier-up` keeps WebAssembly in V8's baseline compiler: optimising PGlite's hot
 * functions added about 30 MiB of code to the server under load, for no throughput measured
 * (README, The server).
 */
export const SERVE_V8_FLAGS =
  "--v8-flags=--max-old-space-size=320,--max-semi-space-size=4,--expose-gc,--no-wasm-tier-up";
/** All flags `deno task serve` runs with: mammoth (DOCX ingestion) needs --unsafe-proto. */
export const SERVE_FLAGS = ["--unsafe-proto", SERVE_V8_FLAGS];
/**
 * The environment `deno task serve` sets: glibc's allocator with two arenas and a fixed mmap
 * threshold (README, The server: memory). With glibc's defaults, buffers freed by the ranking
 * worker after a hot swap stayed in its arena, and the server's peak grew by 15-20 MiB a swap.
 * Other C libraries ignore these variables.
 */
export const SERVE_ENV: Record<string, string> = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
};

/** Starts serve/main.ts as a child process, env added to this process's environment. */
export const startServer = (env: Record<string, string>) =>
  startProcess(["run", "-A", ...SERVE_FLAGS, join(ROOT, "serve/main.ts")], ROOT, {
    ...SERVE_ENV,
    ...env,
  });

/**
 * A bench server's environment: loopback on port, its own DATA_DIR and .eml outbox under tmp,
 * the artifacts in artifactsDir, no first-run builds, warn-level logs, no artifact watching. The
 * e-mail outbox is polled at the default interval (MAIL_POLL_MS, 1 s), as a new user's server
 * polls it: until 2026-11-26 it was 100 ms here, to read the sign-up link sooner, and its ten
 * polls a second were 3-4 ms of PGlite each on the request thread of the server being measured.
 */
export function benchServerEnv(
  tmp: string,
  port: number,
  artifactsDir: string,
  databaseUrl = "",
): Record<string, string> {
  return {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    DATA_DIR: join(tmp, "data"),
    ARTIFACTS_DIR: artifactsDir,
    BOOTSTRAP_ONET_DIR: "",
    BOOTSTRAP_POSTINGS: "",
    BOOTSTRAP_EVIDENCE: "",
    MAIL_OUTBOX_DIR: join(tmp, "outbox"),
    LOG_LEVEL: "warn",
    ARTIFACT_WATCH: "false",
  };
}

/** Kills a bench server if still running, then removes its folder and scratch database. */
export async function disposeServer(
  server: ServerProcess,
  tmp: string,
  scratch: { drop(): Promise<void> } | null,
): Promise<void> {
  try {
    server.child.kill("SIGKILL");
  } catch { /* already stopped */ }
  await server.done;
  await Deno.remove(tmp, { recursive: true });
  await scratch?.drop();
}

/** The verification token mailed to `email`, from the `.eml` files in dir (8bit text). */
export async function tokenFromOutbox(
  dir: string,
  email: string,
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const names: string[] = [];
    try {
      for await (const e of Deno.readDir(dir)) {
        if (/verify_email.*\.eml$/.test(e.name)) names.push(e.name);
      }
    } catch { /* not created yet */ }
    for (const name of names.sort().reverse()) {
      const decoded = await Deno.readTextFile(join(dir, name));
      // A shared Postgres may hold mail for other accounts (part 1's, earlier runs').
      if (new RegExp(`^To: .*${email.replaceAll(".", "\\.")}`, "mi").test(decoded)) {
        return tokenFromEmail(decoded);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no verification email for ${email} in ${dir}`);
}

/** Raises the account's contract limits to {@link LIMITS} with `deno task admin limits`. */
async function runAdminCli(email: string, env: Record<string, string>): Promise<string> {
  const args = [
    "limits",
    `--email=${email}`,
    `--rate-per-minute=${LIMITS.rate_per_minute}`,
    `--monthly-quota=${LIMITS.monthly_quota}`,
    `--concurrency=${LIMITS.concurrency}`,
  ];
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "admin", ...args],
    cwd: ROOT,
    env,
  })
    .output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  if (!out.success) {
    throw new Error(`deno task admin failed:\n${decode(out.stderr)}${decode(out.stdout)}`);
  }
  return `deno task admin ${args.join(" ")}`;
}

/**
 * Raises the limits with the operator CLI; the embedded database needs the server stopped.
 * `env.DATABASE_URL` (empty: embedded), when given, overrides this process's DATABASE_URL.
 */
export async function raiseLimits(
  server: ServerProcess,
  email: string,
  env: Record<string, string>,
) {
  if (env.DATABASE_URL ?? DATABASE_URL) {
    // The key has not been used yet, so no server has it cached: the change applies at once.
    console.log(`  ran \`${await runAdminCli(email, env)}\` against the shared Postgres`);
    return server;
  }
  const code = await stopServer(server);
  const command = await runAdminCli(email, env);
  const restarted = startServer(env);
  await waitReady(restarted, `http://${env.HOST}:${env.PORT}`);
  console.log(
    `  the CLI cannot open the embedded database while the server holds it, so: stopped the\n` +
      `  server (SIGTERM, exit ${code}), ran \`${command}\`,\n` +
      `  restarted it (pid ${restarted.child.pid})`,
  );
  return restarted;
}

/** Part 2: requests per second and latency of the real server on loopback. */
async function throughputPart(quick: boolean, allowWrk: boolean): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "bench-platform-serve-" });
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: join(tmp, "data"),
    ARTIFACTS_DIR: join(tmp, "artifacts"),
    MAIL_OUTBOX_DIR: join(tmp, "outbox"),
    BOOTSTRAP_ONET_DIR: FIXTURE_ONET,
    LOG_LEVEL: "warn",
    ARTIFACT_WATCH: "false",
    MAIL_POLL_MS: "100",
  };
  const mode = DATABASE_URL ? "Postgres from DATABASE_URL" : "embedded PGlite";
  console.log(
    `\nPart 2: throughput on loopback (serve/main.ts on ${base}, ${mode}, LOG_LEVEL=warn)`,
  );
  let server = startServer(env);
  try {
    const t0 = performance.now();
    await waitReady(server, base);
    const startup = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(`  server ready in ${startup} s (pid ${server.child.pid}, fixture taxonomy built)`);

    const email = `bench-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const send: Send = (path, init) => fetch(`${base}${path}`, init);
    const { key } = await signUp(send, email, () => tokenFromOutbox(env.MAIL_OUTBOX_DIR, email));
    console.log(`  signed up ${email} over HTTP (verification link read from the .eml outbox)`);
    server = await raiseLimits(server, email, env);
    const before = memoryOf(server.child.pid);

    const useWrk = allowWrk && await hasWrk();
    const load = useWrk ? wrkLoad : fetchLoad;
    const [warmup, seconds] = quick ? [1, 3] : [2, 10];
    const routes: { name: string; path: string; headers: Record<string, string> }[] = [
      { name: `GET ${LIVE} (no key)`, path: LIVE, headers: {} },
      { name: `GET ${RUNTIME} (key)`, path: RUNTIME, headers: { authorization: `Bearer ${key}` } },
    ];
    const results: LoadResult[] = [];
    for (const { path, headers } of routes) {
      await load(`${base}${path}`, { connections: 32, seconds: warmup, headers });
      results.push(await load(`${base}${path}`, { connections: 32, seconds, headers }));
    }
    const after = memoryOf(server.child.pid);
    const why = useWrk ? "" : allowWrk ? " (wrk is not on PATH)" : " (--no-wrk)";
    console.log(
      `  load: ${results[0].tool}${why}, ${seconds} s per route after ${warmup} s warm-up`,
    );
    if (!useWrk) {
      console.log("  (the generator runs in this process and shares the CPUs with the server)");
    }
    table(
      ["route", "req/s", "p50 ms", "p99 ms", "requests", "failed"],
      results.map((r, i) => [
        routes[i].name,
        Math.round(r.rps),
        ms(r.p50, 2),
        ms(r.p99, 2),
        r.requests,
        r.failures,
      ]),
    );
    const [live, runtime] = results;
    const addedUs = (1 / runtime.rps - 1 / live.rps) * 1e6;
    console.log(
      `  runtime route at ${Math.round((100 * runtime.rps) / live.rps)}% of the no-key ` +
        `throughput: about ${Math.round(addedUs)} µs more per request at saturation`,
    );
    console.log(
      `  server memory: RSS ${mb(before.rss)} before load, ${mb(after.rss)} after, ` +
        `peak (VmHWM) ${mb(after.peak)}`,
    );
    if (results.some((r) => r.failures > 0)) throw new Error("some requests failed");

    const code = await stopServer(server);
    console.log(`  server stopped with SIGTERM: exit code ${code}`);
    if (code !== 0) throw new Error(`server exited with ${code}:\n${server.output.join("")}`);
  } finally {
    try {
      server.child.kill("SIGKILL");
    } catch { /* already stopped */ }
    await server.done;
    await Deno.remove(tmp, { recursive: true });
  }
}

/** A wrk script of wrong-password logins, each from a random address and for a random email. */
const FLOOD_SCRIPT = `
math.randomseed(os.time())
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) s401 = 0; s503 = 0; other = 0 end
function request()
  local ip = math.random(1, 223) .. "." .. math.random(0, 255) .. "." ..
    math.random(0, 255) .. "." .. math.random(1, 254)
  local body = '{"email":"flood-' .. math.random(1, 1000000000) ..
    '@example.com","password":"wrong-password-123"}'
  return wrk.format("POST", "/api/v1/platform/login",
    { ["content-type"] = "application/json", ["x-forwarded-for"] = ip }, body)
end
function response(status, headers, body)
  if status == 401 then s401 = s401 + 1 elseif status == 503 then s503 = s503 + 1
  else other = other + 1 end
end
function done(summary, latency, requests)
  local a, b, c = 0, 0, 0
  for _, t in ipairs(threads) do a = a + t:get("s401"); b = b + t:get("s503"); c = c + t:get("other") end
  io.write(string.format("STATUS 401=%d 503=%d other=%d\\n", a, b, c))
end
`;

/** Starts a wrk login flood on `base` for `seconds`; resolves to its summary line. */
async function loginFlood(base: string, connections: number, seconds: number) {
  const tmp = await Deno.makeTempDir({ prefix: "bench-flood-" });
  try {
    await Deno.writeTextFile(join(tmp, "flood.lua"), FLOOD_SCRIPT);
    const out = await new Deno.Command("wrk", {
      args: ["-t2", `-c${connections}`, `-d${seconds}s`, "-s", join(tmp, "flood.lua"), base],
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    if (!out.success) throw new Error(`wrk flood failed: ${text}`);
    const statuses = text.match(/STATUS (.*)/)?.[1];
    if (!statuses) throw new Error(`wrk flood printed no status counts:\n${text}`);
    const rps = Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? NaN);
    return { statuses, rps };
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

/** Part 3: runtime-route latency during a login flood, with the argon2 cap off and on. */
async function loginFloodPart(quick: boolean, runs: number): Promise<void> {
  if (!(await hasWrk())) throw new Error("--part login-flood needs wrk on PATH");
  const [seconds, floodConnections, healthConnections] = quick ? [4, 64, 8] : [10, 128, 8];
  console.log(
    `\nPart 3: GET ${RUNTIME} (key) during a login flood (wrk -c${floodConnections} wrong-` +
      `password logins, random X-Forwarded-For and email), health by wrk -c${healthConnections}` +
      ` for ${seconds} s, serve/main.ts, ${DATABASE_URL ? "Postgres" : "PGlite"}`,
  );
  const variants = [
    { label: "cap off (ARGON2_CONCURRENCY=0)", env: { ARGON2_CONCURRENCY: "0" } },
    { label: "cap on (defaults)", env: {} as Record<string, string> },
  ];
  const rows: (string | number)[][] = [];
  for (let run = 1; run <= runs; run++) {
    for (const variant of variants) {
      const tmp = await Deno.makeTempDir({ prefix: "bench-platform-flood-" });
      const port = freePort();
      const base = `http://127.0.0.1:${port}`;
      const env = {
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: join(tmp, "data"),
        ARTIFACTS_DIR: join(tmp, "artifacts"),
        MAIL_OUTBOX_DIR: join(tmp, "outbox"),
        BOOTSTRAP_ONET_DIR: FIXTURE_ONET,
        LOG_LEVEL: "warn",
        ARTIFACT_WATCH: "false",
        MAIL_POLL_MS: "100",
        TRUSTED_PROXY_HOPS: "1",
        ...variant.env,
      };
      let server = startServer(env);
      try {
        await waitReady(server, base);
        const email = `bench-${crypto.randomUUID().slice(0, 8)}@example.com`;
        const send: Send = (path, init) => fetch(`${base}${path}`, init);
        const { key } = await signUp(
          send,
          email,
          () => tokenFromOutbox(env.MAIL_OUTBOX_DIR, email),
        );
        server = await raiseLimits(server, email, env);
        const health = { connections: healthConnections, seconds, headers: {} };
        const auth = { authorization: `Bearer ${key}` };
        await wrkLoad(`${base}${RUNTIME}`, { ...health, seconds: 1, headers: auth });
        const quiet = await wrkLoad(`${base}${RUNTIME}`, { ...health, headers: auth });
        const flood = loginFlood(base, floodConnections, seconds + 3);
        await new Promise((resolve) => setTimeout(resolve, 2000)); // let the flood build up
        const loaded = await wrkLoad(`${base}${RUNTIME}`, { ...health, headers: auth });
        const logins = await flood;
        const peak = memoryOf(server.child.pid).peak;
        rows.push([
          `run ${run}: ${variant.label}`,
          ms(quiet.p99, 2),
          ms(loaded.p50, 2),
          ms(loaded.p99, 2),
          Math.round(loaded.rps),
          Math.round(logins.rps),
          mb(peak),
        ]);
        console.log(`  run ${run}, ${variant.label}: logins ${logins.statuses}`);
        if (quiet.failures > 0 || loaded.failures > 0) throw new Error("health requests failed");
      } finally {
        await stopServer(server).catch(() => {});
        await Deno.remove(tmp, { recursive: true });
      }
    }
  }
  table(
    ["variant", "quiet p99", "flood p50", "flood p99", "health/s", "logins/s", "peak RSS"],
    rows,
  );
}

/** Parses the flags and runs the requested parts. */
export async function main(args: string[]): Promise<void> {
  const quick = args.includes("--quick");
  const partIndex = args.indexOf("--part");
  const part = args.find((a) => a.startsWith("--part="))?.slice(7) ??
    (partIndex >= 0 ? args[partIndex + 1] : "all");
  if (!["latency", "throughput", "login-flood", "all"].includes(part)) {
    console.error(
      `bench:platform: --part must be latency, throughput, login-flood or all, got "${part}"`,
    );
    Deno.exitCode = 64;
    return;
  }
  console.log(
    `platform bench${quick ? " (--quick)" : ""}: deno ${Deno.version.deno}, ` +
      `${Deno.build.os} ${Deno.build.arch}, ${navigator.hardwareConcurrency} CPUs`,
  );
  if (part === "login-flood") {
    const runs = Number(args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 2);
    return await loginFloodPart(quick, runs);
  }
  if (part !== "throughput") await latencyPart(quick);
  if (part !== "latency") await throughputPart(quick, !args.includes("--no-wrk"));
}

if (import.meta.main) {
  await main(Deno.args);
}
