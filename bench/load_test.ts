import assert from "node:assert/strict";
import { cpuPerRequest, parseThreadStat, threadCpuOf } from "./load.ts";

Deno.test("a thread's stat line gives its name and user + system ticks, whatever the name holds", () => {
  const line = "4242 (V8 DefaultWorke) S 1 4242 4242 0 -1 4194560 10 0 0 0 123 45 0 0 20 0 9 0 " +
    "100 200 300";
  assert.deepEqual(parseThreadStat(line), { name: "V8 DefaultWorke", ticks: 168 });
  const odd = "7 (a (b) c) R 1 7 7 0 -1 0 0 0 0 0 5 6 0 0 20 0 1 0 1 2 3";
  assert.deepEqual(parseThreadStat(odd), { name: "a (b) c", ticks: 11 });
});

Deno.test("CPU per request: ticks to microseconds over the requests served", () => {
  const per = cpuPerRequest(
    { main: 100, workers: 50, other: 10 },
    { main: 300, workers: 250, other: 30 },
    10_000,
  );
  // 200 ticks = 2 s over 10,000 requests = 200 µs each.
  assert.deepEqual(per, { main: 200, workers: 200, other: 20 });
  assert.deepEqual(cpuPerRequest(per, per, 0), { main: 0, workers: 0, other: 0 });
});

Deno.test("this process's own threads can be read", () => {
  const cpu = threadCpuOf(Deno.pid);
  assert.ok(cpu.main >= 0 && cpu.workers === 0 && cpu.other >= 0);
});
