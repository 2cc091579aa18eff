import assert from "node:assert/strict";
import { BodyCache } from "./intelligence.ts";

Deno.test("the body cache is bounded by entries and by bytes, least recently used out first", () => {
  const body = (n: number) => ({ body: new Uint8Array(n) });
  const byCount = new BodyCache(2, 1_000_000);
  byCount.set("a", body(10));
  byCount.set("b", body(10));
  assert.ok(byCount.get("a"), "a is now the most recent");
  byCount.set("c", body(10));
  assert.equal(byCount.get("b"), undefined, "b was the least recently used");
  assert.ok(byCount.get("a") && byCount.get("c"));

  const byBytes = new BodyCache(100, 250);
  for (const key of ["k1", "k2", "k3"]) byBytes.set(key, body(98)); // 100 bytes each
  assert.equal(byBytes.get("k1"), undefined);
  assert.ok(byBytes.get("k2") && byBytes.get("k3"));
  assert.ok(byBytes.bytes <= 250, String(byBytes.bytes));
  byBytes.set("huge", body(1_000));
  assert.equal(byBytes.get("huge"), undefined, "a body larger than the cache is not kept");
  assert.ok(byBytes.get("k2"), "and pushes nothing out");
  byBytes.set("none", { insufficient: true });
  assert.deepEqual(byBytes.get("none"), { insufficient: true });

  const off = new BodyCache(0);
  off.set("a", body(1));
  assert.equal(off.get("a"), undefined);
});
