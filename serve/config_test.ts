import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "./config.ts";

Deno.test("defaults: 127.0.0.1:8000, embedded database under ./data, 30.1 then sample bootstrap", () => {
  const config = loadConfig({});
  assert.equal(config.PORT, 8000);
  assert.equal(config.HOST, "127.0.0.1");
  assert.equal(config.DATABASE_URL, undefined);
  assert.equal(config.DATA_DIR, "./data");
  assert.equal(config.ARTIFACTS_DIR, "./artifacts");
  assert.deepEqual(config.BOOTSTRAP_ONET_DIR, [
    "../shared/data/onet/db_30_1_text",
    "./fixtures/onet-sample",
  ]);
  assert.deepEqual(loadConfig({ BOOTSTRAP_ONET_DIR: " ./a , ./b" }).BOOTSTRAP_ONET_DIR, [
    "./a",
    "./b",
  ]);
  assert.equal(config.ARTIFACT_WATCH, true);
  assert.equal(config.MAX_BODY_BYTES, 1048576);
  assert.equal(config.PGLITE_SHARED_BUFFERS, "8MB");
});

Deno.test("values are coerced; empty strings count as unset", () => {
  const config = loadConfig({ PORT: "9001", ARTIFACT_WATCH: "false", HOST: "" });
  assert.equal(config.PORT, 9001);
  assert.equal(config.ARTIFACT_WATCH, false);
  assert.equal(config.HOST, "127.0.0.1");
});

Deno.test("every bad value is listed at once", () => {
  assert.throws(
    () =>
      loadConfig({
        PORT: "http",
        DATABASE_URL: "mysql://x",
        LOG_LEVEL: "loud",
        MAX_BODY_BYTES: "10",
      }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      const vars = error.problems.map((p) => p.split(":")[0]).sort();
      assert.deepEqual(vars, ["DATABASE_URL", "LOG_LEVEL", "MAX_BODY_BYTES", "PORT"]);
      return true;
    },
  );
});
