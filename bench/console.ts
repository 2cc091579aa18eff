/**
 * `deno task bench:console`: latency of the developer console's pages on the real server
 * (serve/main.ts over loopback, embedded PGlite in a temporary DATA_DIR, or a scratch database
 * on the DATABASE_URL server when set; the taxonomy artifact of ./artifacts is not needed, so
 * a small one is built from the fixture). An account is signed up over HTTP, a session is
 * opened through the console's own log-in form, a key is created, and each page is driven by
 * wrk (-t1) at 32 connections, or bench/load.ts without wrk: req/s, p50 and p99 per page.
 * Target (issue 14): p99 <= 50 ms on every page.
 *
 * Flags: --quick (3 s runs, 1 s warm-up), --seconds N (5), --connections N (32), --no-wrk.
 */
import { join } from "node:path";
import { createScratchDatabase } from "../serve/stores/postgres.ts";
import { buildFixture } from "../tests/helpers.ts";
import { fetchLoad, freePort, hasWrk, type LoadResult, memoryOf, wrkLoad } from "./load.ts";
import {
  benchServerEnv,
  disposeServer,
  mb,
  ms,
  type Send,
  signUp,
  tokenFromOutbox,
} from "./platform.ts";
import { startReady, stopClean } from "./serve.ts";
import { loadAverage, parseLoadFlags } from "./beside_health.ts";

/** Target of issue 14: every console page answers within this p99 at 32 connections. */
export const P99_TARGET_MS = 50;

/** The pages measured: signed out, then signed in. */
export const PAGES = [
  { path: "/console/login", session: false },
  { path: "/console/keys", session: true },
  { path: "/console/usage", session: true },
  { path: "/console/try", session: true },
  { path: "/console/feedback", session: true },
];

const PASSWORD = "violet-harbour-lantern-42";

/** Logs in through the console's form (pre-session cookie, CSRF token); the Cookie header. */
async function consoleCookie(base: string, email: string): Promise<string> {
  const form = await fetch(`${base}/console/login`);
  const pre = form.headers.getSetCookie()[0].split(";")[0];
  const csrf = (await form.text()).match(/name="_csrf" value="([^"]+)"/)![1];
  const login = await fetch(`${base}/console/login`, {
    method: "POST",
    redirect: "manual",
    headers: {
      cookie: pre,
      origin: base,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ _csrf: csrf, email, password: PASSWORD }).toString(),
  });
  await login.body?.cancel();
  if (login.status !== 303) throw new Error(`console log-in answered ${login.status}`);
  const session = login.headers.getSetCookie().find((c) => c.startsWith("oi_console="));
  if (!session) throw new Error("console log-in set no session cookie");
  return `${pre}; ${session.split(";")[0]}`;
}

/** Starts the server, signs in, checks and measures each page, prints the table. */
export async function main(args: string[]): Promise<void> {
  const options = parseLoadFlags(args);
  const useWrk = options.allowWrk && await hasWrk();
  const load = useWrk ? wrkLoad : fetchLoad;
  const scratch = Deno.env.get("DATABASE_URL")
    ? await createScratchDatabase(Deno.env.get("DATABASE_URL")!, "bench_console")
    : null;
  const tmp = await Deno.makeTempDir({ prefix: "bench-console-" });
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  await buildFixture(join(tmp, "artifacts"));
  const env = benchServerEnv(tmp, port, join(tmp, "artifacts"), scratch?.url ?? "");
  console.log(
    `bench:console: serve/main.ts on ${base}, database: ` +
      `${scratch ? "a new database on the DATABASE_URL server" : "embedded PGlite"}`,
  );
  const server = await startReady(env, base);
  try {
    const email = `bench-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const send: Send = (path, init) => fetch(`${base}${path}`, init);
    const { key } = await signUp(send, email, () => tokenFromOutbox(env.MAIL_OUTBOX_DIR, email));
    // One runtime call, so the usage page has a day, a route and a status to draw.
    const call = await fetch(`${base}/api/v1/occupation/candidates`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Registered Nurse" }),
    });
    await call.body?.cancel();
    const cookie = await consoleCookie(base, email);
    console.log(`  signed up ${email}, logged in through the console form`);
    console.log(`  load average: ${await loadAverage()}`);
    for (const page of PAGES) {
      const response = await fetch(`${base}${page.path}`, {
        headers: page.session ? { cookie } : {},
        redirect: "manual",
      });
      const html = await response.text();
      if (response.status !== 200 || !html.startsWith("<!DOCTYPE html>")) {
        throw new Error(`GET ${page.path} answered ${response.status}`);
      }
      console.log(`  check GET ${page.path} -> 200, ${html.length} bytes of HTML`);
    }
    const run = (path: string, session: boolean, seconds: number) =>
      load(`${base}${path}`, {
        connections: options.connections,
        seconds,
        headers: session ? { cookie } : {},
      });
    for (const page of PAGES) await run(page.path, page.session, options.warmup);
    const rows: { path: string; result: LoadResult }[] = [];
    for (const page of PAGES) {
      const result = await run(page.path, page.session, options.seconds);
      rows.push({ path: page.path, result });
    }
    const memory = memoryOf(server.child.pid);
    console.log(
      `  ${options.connections} connections, ${options.seconds} s per page after a ` +
        `${options.warmup} s warm-up of each; load: ${rows[0].result.tool}`,
    );
    const cells = (values: string[]) => values.map((v) => v.padStart(10)).join("");
    console.log(
      `    ${"page".padEnd(22)}${cells(["req/s", "p50 ms", "p99 ms", "non-2xx"])}  target`,
    );
    let missed = 0;
    for (const { path, result } of rows) {
      const ok = result.p99 <= P99_TARGET_MS && result.failures === 0;
      if (!ok) missed++;
      console.log(
        `    ${`GET ${path}`.padEnd(22)}${
          cells([
            String(Math.round(result.rps)),
            ms(result.p50, 2),
            ms(result.p99, 2),
            String(result.failures),
          ])
        }  ${ok ? "met" : "NOT met"}`,
      );
    }
    console.log(
      `  target: p99 <= ${P99_TARGET_MS} ms on every page -> ` +
        (missed ? `NOT met on ${missed} of ${rows.length}` : "met"),
    );
    console.log(`  server memory: RSS ${mb(memory.rss)}, peak (VmHWM) ${mb(memory.peak)}`);
    await stopClean(server);
  } catch (error) {
    const exited = await Promise.race([
      server.child.status.then((s) => `exited: ${JSON.stringify(s)}`),
      new Promise((r) => setTimeout(() => r("running"), 100)),
    ]);
    console.error(`server ${exited}; output:\n${server.output.join("").slice(-4000)}`);
    throw error;
  } finally {
    await disposeServer(server, tmp, scratch);
  }
}

if (import.meta.main) await main(Deno.args);
