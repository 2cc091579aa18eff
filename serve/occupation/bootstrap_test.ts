/** First-run bootstrap: the first existing release folder of the configured list is built. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { bootstrapTaxonomy, firstFolder } from "./bootstrap.ts";
import { memoryLogger } from "../http/log.ts";
import { readPointer } from "../../build/publish.ts";

const LEAN_30_1 = fileURLToPath(new URL("../../fixtures/onet-sample-30-1", import.meta.url));
const SAMPLE_29_3 = fileURLToPath(new URL("../../fixtures/onet-sample", import.meta.url));

Deno.test("firstFolder skips missing paths and files", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "bootstrap-test-" });
  try {
    await Deno.writeTextFile(join(tmp, "file"), "x");
    const missing = join(tmp, "missing");
    assert.equal(await firstFolder([missing, join(tmp, "file"), LEAN_30_1]), LEAN_30_1);
    assert.equal(await firstFolder([missing]), null);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("bootstrap builds the first existing release, once, and logs which", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "bootstrap-test-" });
  try {
    const artifacts = join(tmp, "artifacts");
    const logger = memoryLogger();
    await bootstrapTaxonomy(artifacts, [join(tmp, "missing"), LEAN_30_1, SAMPLE_29_3], logger);
    const version = await readPointer(join(artifacts, "taxonomy"));
    assert.match(version ?? "", /^30\.1-[0-9a-f]{12}$/);
    const built = logger.lines.find((l) => l.msg === "taxonomy artifact built")!;
    assert.equal(built.release, "30.1");
    assert.equal(built.header_style, "lean");
    // a published taxonomy is left alone
    await bootstrapTaxonomy(artifacts, [SAMPLE_29_3], logger);
    assert.equal(await readPointer(join(artifacts, "taxonomy")), version);
    await assert.rejects(
      bootstrapTaxonomy(join(tmp, "other"), [join(tmp, "missing")], logger),
      /none of BOOTSTRAP_ONET_DIR exists/,
    );
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
