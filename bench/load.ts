/**
 * Load tests of a server process: start it, wait until ready, drive it with wrk when that is
 * installed or else an in-project generator (N concurrent fetch loops over keep-alive
 * connections; both report the same figures), read its memory, stop it.
 */

/** Latency percentiles of a sample, in milliseconds. */
export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** What one load run measured. */
export interface LoadResult {
  tool: string;
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** Responses other than 2xx (wrk counts 3xx as fine too), plus socket errors. */
  failures: number;
}

/** Options of one load run. */
export interface LoadOptions {
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Request bodies, sent in turn and cycled; with wrk through a generated Lua script. */
  bodies?: string[];
  /** HTTP method: POST when there are bodies, GET otherwise. */
  method?: string;
  /** Paths (with query) sent in turn and cycled instead of the URL's own path. */
  paths?: string[];
}

/** The method of a run's requests. */
function methodOf(options: LoadOptions): string {
  return options.method ?? (options.bodies?.length ? "POST" : "GET");
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Mean, p50, p90, p99 and max of latencies in milliseconds (nearest-rank percentiles). */
export function summarize(samples: ArrayLike<number>): LatencySummary {
  const sorted = Float64Array.from(samples).sort();
  let total = 0;
  for (const v of sorted) total += v;
  return {
    count: sorted.length,
    mean: total / sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
  };
}

/** Drives `url` from `connections` concurrent keep-alive fetch loops for `seconds`. */
export async function fetchLoad(url: string, options: LoadOptions): Promise<LoadResult> {
  // A private client, closed at the end, so no idle connection outlives the run.
  const client = Deno.createHttpClient({ poolMaxIdlePerHost: options.connections });
  const latencies: number[] = [];
  let failures = 0;
  let sent = 0;
  const { bodies, headers, paths } = options;
  const urls = paths?.length ? paths.map((path) => new URL(path, url).href) : [url];
  const method = methodOf(options);
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        const turn = sent++;
        const body = bodies?.length ? bodies[turn % bodies.length] : undefined;
        const target = urls[turn % urls.length];
        const response = await fetch(target, { method, headers, body, client });
        await response.arrayBuffer();
        if (response.status < 200 || response.status > 299) failures++;
      } catch {
        failures++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  const seconds = (performance.now() - started) / 1000;
  client.close();
  const summary = summarize(latencies);
  return {
    tool: `in-project fetch loops (bench/load.ts), ${options.connections} connections`,
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50: summary.p50,
    p99: summary.p99,
    failures,
  };
}

/** Whether `wrk` is on PATH. */
export async function hasWrk(): Promise<boolean> {
  try {
    // wrk exits 1 after printing its version; finding the binary is what counts.
    await new Deno.Command("wrk", { args: ["--version"], stdout: "null", stderr: "null" }).output();
    return true;
  } catch {
    return false;
  }
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function wrkDuration(text: string, label: string): number {
  const match = text.match(new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m"));
  if (!match) throw new Error(`wrk output has no ${label} latency line`);
  return Number(match[1]) * UNIT_MS[match[2]];
}

/** Reads requests, duration, req/s, p50, p99 and failures from `wrk --latency` output. */
export function parseWrk(text: string): Omit<LoadResult, "tool"> {
  const total = text.match(/(\d+) requests in ([\d.]+)(us|ms|s|m)/);
  const rps = text.match(/Requests\/sec:\s+([\d.]+)/);
  if (!total || !rps) throw new Error(`unexpected wrk output:\n${text}`);
  const non2xx = Number(text.match(/Non-2xx or 3xx responses:\s+(\d+)/)?.[1] ?? 0);
  const errors = text.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const socketErrors = errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requests: Number(total[1]),
    seconds: (Number(total[2]) * UNIT_MS[total[3]]) / 1000,
    rps: Number(rps[1]),
    p50: wrkDuration(text, "50%"),
    p99: wrkDuration(text, "99%"),
    failures: non2xx + socketErrors,
  };
}

/** A Lua string literal holding `text` (byte-exact; UTF-8 passes through). */
function luaString(text: string): string {
  const escaped = text.replace(
    // deno-lint-ignore no-control-regex -- control characters are what must be escaped
    /[\\"\x00-\x1f\x7f]/g,
    (c) => c === "\\" || c === '"' ? `\\${c}` : `\\${String(c.charCodeAt(0)).padStart(3, "0")}`,
  );
  return `"${escaped}"`;
}

/**
 * A wrk script whose request() sends `method` to `path` with `headers`, the body cycling
 * through `bodies` and, when `paths` are given, the path through them instead (one wrk
 * thread, so one counter walks each whole list in order).
 */
export function wrkScript(
  method: string,
  path: string,
  headers: Record<string, string>,
  bodies: string[],
  paths: string[] = [],
): string {
  const header = Object.entries(headers).map(([k, v]) => `[${luaString(k)}] = ${luaString(v)}`);
  const list = (name: string, items: string[]) => [
    `local ${name} = {`,
    ...items.map((item) => `  ${luaString(item)},`),
    "}",
  ];
  return [
    `-- generated by bench/load.ts: ${bodies.length} bodies, ${paths.length} paths, sent in turn`,
    `local headers = { ${header.join(", ")} }`,
    ...list("bodies", bodies),
    ...list("paths", paths.length > 0 ? paths : [path]),
    "local i = 0",
    "local j = 0",
    "function request()",
    "  i = #bodies > 0 and i % #bodies + 1 or 0",
    "  j = j % #paths + 1",
    `  return wrk.format(${luaString(method)}, paths[j], headers, bodies[i])`,
    "end",
    "",
  ].join("\n");
}

/**
 * Drives `url` with `wrk -t1 -c<connections> -d<seconds>s --latency`; with bodies, through a
 * {@link wrkScript} written to a temporary folder for the run.
 */
export async function wrkLoad(url: string, options: LoadOptions): Promise<LoadResult> {
  const args = ["-t1", `-c${options.connections}`, `-d${options.seconds}s`, "--latency"];
  let tool = `wrk ${args.join(" ")}`;
  const bodies = options.bodies ?? [];
  const paths = options.paths ?? [];
  const scripted = bodies.length > 0 || paths.length > 0;
  const tmp = scripted ? await Deno.makeTempDir({ prefix: "bench-wrk-" }) : null;
  try {
    if (tmp) {
      const { pathname, search } = new URL(url);
      const headers = options.headers ?? {};
      const script = wrkScript(methodOf(options), pathname + search, headers, bodies, paths);
      await Deno.writeTextFile(`${tmp}/bodies.lua`, script);
      args.push("-s", `${tmp}/bodies.lua`);
      const cycled = [
        bodies.length > 0 ? `${bodies.length} bodies` : "",
        paths.length > 0 ? `${paths.length} paths` : "",
      ].filter(Boolean).join(" and ");
      tool += ` -s <Lua script cycling ${cycled}>`;
    } else {
      for (const [name, value] of Object.entries(options.headers ?? {})) {
        args.push("-H", `${name}: ${value}`);
      }
    }
    const output = await new Deno.Command("wrk", { args: [...args, url] }).output();
    const text = new TextDecoder().decode(output.stdout);
    if (!output.success) {
      throw new Error(`wrk failed: ${new TextDecoder().decode(output.stderr)}${text}`);
    }
    return { tool, ...parseWrk(text) };
  } finally {
    if (tmp) await Deno.remove(tmp, { recursive: true });
  }
}

/** A server under test as a child process, its output kept for error messages. */
export interface ServerProcess {
  child: Deno.ChildProcess;
  output: string[];
  done: Promise<unknown>;
}

/** Starts `deno <args>` in cwd with env added to this process's environment. */
export function startProcess(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): ServerProcess {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output: string[] = [];
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) output.push(chunk);
  };
  return { child, output, done: Promise.all([pump(child.stdout), pump(child.stderr)]) };
}

/** Polls `<base>/health/ready` until it answers 200; throws if the process exits first. */
export async function waitReady(server: ServerProcess, base: string, timeoutMs = 120_000) {
  let exited = false;
  server.child.status.then(() => exited = true);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !exited) {
    const ok = await fetch(`${base}/health/ready`).then(async (r) => (await r.body?.cancel(), r.ok))
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (exited) await server.done;
  const why = exited ? `exited with code ${(await server.child.status).code}` : "not ready in time";
  throw new Error(`server ${why}:\n${server.output.join("")}`);
}

/** Sends SIGTERM and returns the exit code once the process has gone. */
export async function stopServer(server: ServerProcess): Promise<number> {
  server.child.kill("SIGTERM");
  const { code } = await server.child.status;
  await server.done;
  return code;
}

/** A loopback port free at the time of asking. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}

/** Peak (VmHWM) and current (VmRSS) resident memory of a process, in kB. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const field = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+)`, "m"))![1]);
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

/** CPU time (user + system, in clock ticks) of each thread of a process, by kind of thread. */
export interface ThreadCpu {
  /** The process's first thread: the server's request thread. */
  main: number;
  /** Threads that `new Worker` started (Deno names them `worker-N`): ranking, PGlite. */
  workers: number;
  /** Everything else: V8's helper threads (concurrent GC, compilers), Tokio, DuckDB. */
  other: number;
}

/** Reads the CPU time of every thread of `pid` from /proc (Linux). */
export function threadCpuOf(pid: number): ThreadCpu {
  const out: ThreadCpu = { main: 0, workers: 0, other: 0 };
  for (const entry of Deno.readDirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`/proc/${pid}/task/${entry.name}/stat`);
    } catch {
      continue; // the thread ended between the listing and the read
    }
    const { name, ticks } = parseThreadStat(stat);
    if (entry.name === String(pid)) out.main += ticks;
    else if (name.startsWith("worker-")) out.workers += ticks;
    else out.other += ticks;
  }
  return out;
}

/** The name and utime + stime (ticks) of one `/proc/<pid>/task/<tid>/stat` line. */
export function parseThreadStat(stat: string): { name: string; ticks: number } {
  // The name is in parentheses and may hold spaces or parentheses: split after the last ")".
  const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the name: state (field 3), ..., utime (14) and stime (15), 1-based over the whole line.
  return { name, ticks: Number(fields[11]) + Number(fields[12]) };
}

/** Microseconds of CPU per request of each kind of thread between two readings. */
export function cpuPerRequest(
  before: ThreadCpu,
  after: ThreadCpu,
  requests: number,
  ticksPerSecond = 100,
): ThreadCpu {
  const per = (a: number, b: number) =>
    requests > 0 ? ((b - a) / ticksPerSecond) * 1e6 / requests : 0;
  return {
    main: per(before.main, after.main),
    workers: per(before.workers, after.workers),
    other: per(before.other, after.other),
  };
}
