/**
 * End to end: the real server process on a free port, started as a newcomer would (no
 * artifacts, embedded database), a second process refused on the same data directory, a
 * hot swap picked up from a new build, and a clean shutdown on SIGTERM.
 */
import assert from "node:assert/strict";
import { buildFixture, FIXTURE_ONET, variantRelease, waitFor } from "./helpers.ts";

const MAIN = new URL("../serve/main.ts", import.meta.url).pathname;

function startServer(env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN],
    env: { PORT: "0", HOST: "127.0.0.1", BOOTSTRAP_ONET_DIR: FIXTURE_ONET, ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: Record<string, unknown>[] = [];
  const pump = (async () => {
    let buffer = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        try {
          lines.push(JSON.parse(line));
        } catch {
          lines.push({ raw: line });
        }
      }
    }
  })();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const drainStderr = (async () => {
    for (;;) if ((await stderr.read()).done) break;
  })();
  return { child, lines, done: Promise.all([pump, drainStderr]) };
}

Deno.test("serve: first run builds the sample artifact, serves, swaps, refuses a twin, stops cleanly", async () => {
  const root = await Deno.makeTempDir({ prefix: "test-e2e-" });
  const env = { DATA_DIR: `${root}/data`, ARTIFACTS_DIR: `${root}/artifacts` };
  const server = startServer(env);
  try {
    await waitFor(() => server.lines.some((l) => l.msg === "listening"), 60_000);
    const messages = server.lines.map((l) => l.msg);
    assert.ok(
      messages.includes("no taxonomy artifact found; building one from the sample release"),
    );
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
