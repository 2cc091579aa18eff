import assert from "node:assert/strict";
import { PasswordGate } from "./password_gate.ts";
import { ApiError } from "../http/errors.ts";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => null, (e) => e);
  assert.ok(error instanceof ApiError, "refused with an ApiError");
  return error;
}

Deno.test("password gate: at most maxConcurrent run; the queue takes turns in order", async () => {
  const gate = new PasswordGate(2, 10, 5_000);
  let running = 0;
  let peak = 0;
  const order: number[] = [];
  await Promise.all(Array.from({ length: 7 }, (_, i) =>
    gate.run(async () => {
      running++;
      peak = Math.max(peak, running);
      await pause(5);
      order.push(i);
      running--;
    })));
  assert.equal(peak, 2);
  assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6]);
  assert.deepEqual(gate.load, { active: 0, queued: 0 });
});

Deno.test("password gate: a full queue is refused at once with 503 and Retry-After", async () => {
  const gate = new PasswordGate(1, 2, 5_000);
  const held = await gate.acquire();
  gate.refuseIfFull(); // room in the queue: no refusal
  const queued = [gate.acquire(), gate.acquire()];
  const error = await refusal(gate.acquire());
  assert.throws(() => gate.refuseIfFull(), ApiError);
  assert.equal(error.code, "overloaded");
  assert.equal(error.headers["retry-after"], "1");
  assert.deepEqual(gate.load, { active: 1, queued: 2 });
  held();
  held(); // a second call is a no-op, not a second release
  const next = await queued[0];
  assert.deepEqual(gate.load, { active: 1, queued: 1 });
  next();
  (await queued[1])();
  assert.deepEqual(gate.load, { active: 0, queued: 0 });
});

Deno.test("password gate: a wait past maxWaitMs is refused and leaves the queue", async () => {
  const gate = new PasswordGate(1, 5, 30);
  const held = await gate.acquire();
  const started = performance.now();
  assert.equal((await refusal(gate.acquire())).code, "overloaded");
  assert.ok(performance.now() - started >= 25);
  assert.deepEqual(gate.load, { active: 1, queued: 0 });
  held();
  assert.deepEqual(gate.load, { active: 0, queued: 0 });
});

Deno.test("password gate: maxConcurrent 0 turns the cap off", async () => {
  const gate = new PasswordGate(0, 0, 1);
  const turns = await Promise.all(Array.from({ length: 50 }, () => gate.acquire()));
  assert.equal(turns.length, 50);
});
