/**
 * End to end: the real server process on a free port, started as a newcomer would (no
 * artifacts, embedded database), a second process refused on the same data directory, a
 * hot swap picked up from a new build, and a clean shutdown on SIGTERM; and a newcomer's first
 * runtime call over HTTP, whose usage record SIGTERM writes before the process exits.
 */
import assert from "node:assert/strict";
import { buildFixture, FIXTURE_ONET, variantRelease, waitFor } from "./helpers.ts";
import { openPglite } from "../serve/stores/postgres.ts";

const MAIN = new URL("../serve/main.ts", import.meta.url).pathname;
const CONFIG = new URL("../deno.json", import.meta.url).pathname;

/** Calls `onLine` with each complete line of `stream`. */
async function eachLine(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void) {
  let buffer = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      onLine(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
    }
  }
  if (buffer !== "") onLine(buffer);
}

function startServer(env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    // The project's deno.json, wherever the tests run from: its settings shape the logs.
    args: ["run", "-A", "--config", CONFIG, MAIN],
    env: { PORT: "0", HOST: "127.0.0.1", BOOTSTRAP_ONET_DIR: FIXTURE_ONET, ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: Record<string, unknown>[] = [];
  /** Every line exactly as written, per stream, for the one-JSON-object-a-line check. */
  const raw = { stdout: [] as string[], stderr: [] as string[] };
  const pump = eachLine(child.stdout, (line) => {
    raw.stdout.push(line);
    try {
      lines.push(JSON.parse(line));
    } catch {
      lines.push({ raw: line });
    }
  });
  const drainStderr = eachLine(child.stderr, (line) => raw.stderr.push(line));
  return { child, lines, raw, done: Promise.all([pump, drainStderr]) };
}

Deno.test("serve: first run builds the sample artifact, serves, swaps, refuses a twin, stops cleanly", async () => {
  const root = await Deno.makeTempDir({ prefix: "test-e2e-" });
  const env = { DATA_DIR: `${root}/data`, ARTIFACTS_DIR: `${root}/artifacts` };
  const server = startServer(env);
  try {
    await waitFor(() => server.lines.some((l) => l.msg === "listening"), 60_000);
    const building = server.lines.find((l) =>
      l.msg === "no taxonomy artifact found; building one from the first release folder found"
    );
    assert.equal(building?.source, FIXTURE_ONET);
    const url = String(server.lines.find((l) => l.msg === "listening")!.url);

    const ready = await fetch(`${url}/health/ready`);
    assert.equal(ready.status, 200);
    const first = (await ready.json()).checks.artifacts[0].version;
    assert.match(first, /^29\.3-[0-9a-f]{12}$/);

    const twin = startServer(env);
    const status = await twin.child.status;
    await twin.done;
    assert.equal(status.code, 1);
    assert.ok(
      twin.lines.some((l) => /in use by another process/.test(String(l.error))),
      "the second process explains why it stopped",
    );

    const variant = await variantRelease("(published while serving)");
    try {
      const next = await buildFixture(env.ARTIFACTS_DIR, variant.dir);
      await waitFor(async () => {
        const body = await (await fetch(`${url}/health/ready`)).json();
        return body.checks.artifacts[0].version === next.version;
      }, 10_000);
    } finally {
      await variant.cleanup();
    }

    const access = server.lines.filter((l) => l.msg === "request");
    assert.ok(access.every((l) => typeof l.request_id === "string" && l.route === "/health/ready"));

    server.child.kill("SIGTERM");
    const exit = await server.child.status;
    await server.done;
    assert.equal(exit.code, 0);
    assert.equal(server.lines.at(-1)?.msg, "stopped");
  } finally {
    try {
      server.child.kill("SIGKILL");
    } catch { /* already exited */ }
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("serve: register, verify from the .eml outbox, log in, create a key, call; SIGTERM keeps usage", async () => {
  const root = await Deno.makeTempDir({ prefix: "test-e2e-" });
  const outboxDir = `${root}/outbox`;
  const env = {
    DATA_DIR: `${root}/data`,
    ARTIFACTS_DIR: `${root}/artifacts`,
    MAIL_OUTBOX_DIR: outboxDir,
    MAIL_POLL_MS: "100",
    USAGE_FLUSH_MS: "60000", // only the shutdown flush can write the records
  };
  const server = startServer(env);
  try {
    await waitFor(() => server.lines.some((l) => l.msg === "listening"), 60_000);
    const api = `${String(server.lines.find((l) => l.msg === "listening")!.url)}/api/v1`;
    const post = async (path: string, body: unknown, bearer?: string) => {
      const response = await fetch(`${api}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    const account = { email: "ada@example.com", password: "violet-harbour-lantern-42" };
    const registered = await post("/platform/register", {
      ...account,
      full_name: "Ada Lovelace",
      company_name: "Engines Ltd",
    });
    assert.equal(registered.status, 200);

    let eml = "";
    await waitFor(async () => {
      const entries = await Array.fromAsync(Deno.readDir(outboxDir)).catch(() => []);
      for (const entry of entries) {
        if (entry.name.endsWith(".eml")) {
          eml = await Deno.readTextFile(`${outboxDir}/${entry.name}`);
        }
      }
      return eml !== "";
    }, 10_000);
    assert.match(eml, /^To: ada@example\.com\r$/m);
    const token = eml.match(/^Token: (\S+)\r$/m)![1];
    assert.ok(
      eml.includes(`${api.replace(/\/api\/v1$/, "")}/console/verify?token=${token}\r\n`),
      "link to this server",
    );
    // The log line reaches the test through the server's stdout, after the file is on disk.
    const written = () => server.lines.filter((l) => l.msg === "email written to outbox");
    await waitFor(() => written().length > 0, 10_000);
    assert.equal(written().length, 1);
    assert.ok(!JSON.stringify(server.lines).includes(token), "no log line carries the token");

    const verified = await fetch(`${api}/platform/verify-email?token=${token}`);
    assert.equal((await verified.json()).status, "verified");
    const login = await post("/platform/login", account);
    assert.equal(login.status, 200);
    const created = await post(
      "/platform/api-keys/create",
      { name: "first" },
      login.body.access_token,
    );
    assert.equal(created.status, 200);
    for (let i = 0; i < 3; i++) {
      const call = await fetch(`${api}/health`, {
        headers: { authorization: `Bearer ${created.body.key}` },
      });
      assert.equal(call.status, 200);
      assert.match(call.headers.get("ratelimit") ?? "", /^"minute";r=\d+;t=\d+/);
      await call.body?.cancel();
    }

    server.child.kill("SIGTERM");
    assert.equal((await server.child.status).code, 0);
    await server.done;
    const database = await openPglite(env.DATA_DIR);
    try {
      const rows = await database.db.selectFrom("usage_minutes")
        .select(["route", "status", "requests"]).execute();
      // Three requests, counted in one minute or, across a minute's end, two.
      assert.deepEqual(
        [...new Set(rows.map((r) => `${r.route} ${r.status}`))],
        ["/api/v1/health 200"],
      );
      assert.equal(rows.reduce((sum, r) => sum + Number(r.requests), 0), 3);
    } finally {
      await database.close();
    }
  } finally {
    try {
      server.child.kill("SIGKILL");
    } catch { /* already exited */ }
    await Deno.remove(root, { recursive: true });
  }
});

/** Lines of `lines` that are not one JSON object each. */
function notJsonObjects(lines: string[]): string[] {
  return lines.filter((line) => {
    try {
      const value = JSON.parse(line);
      return typeof value !== "object" || value === null || Array.isArray(value);
    } catch {
      return true;
    }
  });
}

Deno.test("serve: every line written while serving, on stdout and stderr, is one JSON object", async () => {
  const root = await Deno.makeTempDir({ prefix: "test-e2e-" });
  const env = {
    DATA_DIR: `${root}/data`,
    ARTIFACTS_DIR: `${root}/artifacts`,
    MAIL_OUTBOX_DIR: `${root}/outbox`,
  };
  const server = startServer(env);
  try {
    await waitFor(() => server.lines.some((l) => l.msg === "listening"), 60_000);
    const origin = String(server.lines.find((l) => l.msg === "listening")!.url);
    // From here on; the first-run artifact build before it prints its progress as plain text.
    const from = { stdout: server.raw.stdout.length, stderr: server.raw.stderr.length };
    const statuses: number[] = [];
    const send = async (path: string, init?: RequestInit) => {
      const response = await fetch(`${origin}${path}`, init);
      await response.body?.cancel();
      statuses.push(response.status);
    };
    await send("/health/live");
    await send("/openapi.json");
    await send("/api/v1/health"); // 401
    await send("/api/v1/no-such-route"); // 404
    await send("/api/v1/platform/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    // A chunked body (no Content-Length): the body limit re-reads it into a new Request, which
    // touches request.signal; with Deno's legacy abort that printed a plain-text notice.
    const chunks = ['{"email":"ada@example.com",', '"password":"not-the-password-1"}'];
    await send("/api/v1/platform/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: ReadableStream.from(chunks).pipeThrough(new TextEncoderStream()),
    });
    assert.deepEqual(statuses, [200, 200, 401, 404, 422, 401]);

    server.child.kill("SIGTERM");
    assert.equal((await server.child.status).code, 0);
    await server.done;
    assert.equal(server.lines.filter((l) => l.msg === "request").length, statuses.length);
    assert.deepEqual(notJsonObjects(server.raw.stdout.slice(from.stdout)), []);
    assert.deepEqual(notJsonObjects(server.raw.stderr.slice(from.stderr)), []);
    assert.equal(server.lines.at(-1)?.msg, "stopped");
  } finally {
    try {
      server.child.kill("SIGKILL");
    } catch { /* already exited */ }
    await Deno.remove(root, { recursive: true });
  }
});
