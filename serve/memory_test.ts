import assert from "node:assert/strict";
import { collectGarbage, MemoryTrimmer, openMallocTrim, SLOW_TRIM_MS } from "./memory.ts";

const MODULE = new URL("./memory.ts", import.meta.url).href;

async function typeUnder(flags: string[]): Promise<string> {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      ...flags,
      `import { collectGarbage } from "${MODULE}"; console.log(typeof collectGarbage());`,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(success);
  return new TextDecoder().decode(stdout).trim();
}

Deno.test("collectGarbage runs a full collection only where V8 exposes gc", async () => {
  // The test runner has no --expose-gc: nothing runs.
  assert.equal(collectGarbage(), null);
  assert.equal(await typeUnder([]), "object");
  // `deno task serve` passes it: the collection runs and reports its milliseconds.
  assert.equal(await typeUnder(["--v8-flags=--expose-gc"]), "number");
});

Deno.test("MemoryTrimmer trims only when RSS has grown by its step since the last trim", () => {
  let rss = 300;
  const trims: number[] = [];
  const told: { before: number; after: number }[] = [];
  const trimmer = new MemoryTrimmer(250, 16, {
    rss: () => rss,
    trim: () => {
      trims.push(rss);
      rss -= 20; // what the allocator hands back
      return 1;
    },
  }, ({ before, after }) => told.push({ before, after }));
  assert.equal(trimmer.start(), true);
  trimmer.stop();
  rss = 310;
  assert.equal(trimmer.check(), false, "10 over the baseline");
  rss = 316;
  assert.equal(trimmer.check(), true, "16 over");
  assert.deepEqual(trims, [316]);
  // The baseline is RSS after the trim (296): 16 more is needed for the next.
  rss = 310;
  assert.equal(trimmer.check(), false);
  // Growth counts from the lowest RSS seen since.
  rss = 280;
  assert.equal(trimmer.check(), false);
  rss = 297;
  assert.equal(trimmer.check(), true);
  assert.deepEqual(trims, [316, 297]);
  assert.deepEqual(told, [{ before: 316, after: 296 }, { before: 297, after: 277 }]);
  assert.deepEqual({ checks: trimmer.stats.checks, trims: trimmer.stats.trims }, {
    checks: 5,
    trims: 2,
  });
});

Deno.test("MemoryTrimmer is off at interval 0 and where malloc_trim is missing", () => {
  const parts = { rss: () => 0, trim: () => 1 };
  assert.equal(new MemoryTrimmer(0, 16, parts).start(), false);
  const none = new MemoryTrimmer(250, 16, null);
  assert.equal(none.start(), false);
  assert.equal(none.check(), false);
});

Deno.test("openMallocTrim finds glibc's malloc_trim on a GNU Linux build, and it runs", () => {
  const trim = openMallocTrim();
  if (!Deno.build.target.endsWith("-linux-gnu")) return assert.equal(trim, null);
  assert.ok(trim, "glibc's malloc_trim");
  assert.ok(trim() === 0 || trim() === 1);
});

Deno.test("openMallocTrim is off, without an error, when FFI is not allowed", async () => {
  // `deno eval` allows everything: a script run with read permission only.
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      script,
      `import { openMallocTrim } from "${MODULE}"; console.log(openMallocTrim() === null);`,
    );
    const { stdout, success } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "--allow-read", script],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    assert.ok(success);
    assert.equal(new TextDecoder().decode(stdout).trim(), "true");
  } finally {
    await Deno.remove(script);
  }
});

Deno.test("a slow trim doubles the growth the next waits for; a quick one halves it back", () => {
  let rss = 100;
  let slow = true;
  const trimmer = new MemoryTrimmer(100, 8, {
    rss: () => rss,
    trim: () => {
      const until = performance.now() + (slow ? SLOW_TRIM_MS + 5 : 0);
      while (performance.now() < until) { /* the work of a trim on a large heap */ }
      return 1;
    },
  });
  rss = 108;
  assert.equal(trimmer.check(), true);
  assert.equal(trimmer.step, 16);
  rss = 120;
  assert.equal(trimmer.check(), false, "12 over: the step is 16 now");
  rss = 124;
  assert.equal(trimmer.check(), true);
  assert.equal(trimmer.step, 32);
  for (let i = 0; i < 6; i++) {
    rss += 200;
    trimmer.check();
  }
  assert.equal(trimmer.step, 128, "at most 16 steps");
  slow = false;
  rss += 200;
  trimmer.check();
  assert.equal(trimmer.step, 64);
});

Deno.test("MemoryTrimmer does not trim while busy, and trims the growth at the first check after", () => {
  let rss = 300;
  let busy = true;
  const trims: number[] = [];
  const trimmer = new MemoryTrimmer(
    250,
    16,
    {
      rss: () => rss,
      trim: () => {
        trims.push(rss);
        rss -= 40;
        return 1;
      },
    },
    undefined,
    () => busy,
  );
  assert.equal(trimmer.start(), true);
  trimmer.stop();
  for (rss = 320; rss <= 380; rss += 20) assert.equal(trimmer.check(), false, `busy at ${rss}`);
  busy = false;
  rss = 380;
  assert.equal(trimmer.check(), true);
  assert.deepEqual(trims, [380]);
});
