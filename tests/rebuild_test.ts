/** The scheduled rebuild job: change detection, all-or-nothing promotion, pruning, rollback. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURE_EMBEDDINGS, FIXTURE_FEED, FIXTURE_ONET } from "./helpers.ts";
import { readRebuildConfig, rollback, runRebuild } from "../build/rebuild.ts";
import { readPointer } from "../build/publish.ts";

Deno.test("rebuild: unchanged inputs rebuild nothing; a changed feed promotes only the market", async () => {
  const dir = await Deno.makeTempDir({ prefix: "test-rebuild-" });
  try {
    const feed = join(dir, "feed.ndjson");
    await Deno.copyFile(FIXTURE_FEED, feed);
    const configPath = join(dir, "rebuild.json");
    await Deno.writeTextFile(
      configPath,
      JSON.stringify({
        artifacts: "./artifacts",
        keep: 2,
        taxonomy: { onet: FIXTURE_ONET, embeddings: FIXTURE_EMBEDDINGS },
        market: { postings: ["./feed.ndjson"] },
      }),
    );
    const config = await readRebuildConfig(configPath);
    assert.equal(config.artifacts, join(dir, "artifacts"));

    const first = await runRebuild(config);
    assert.deepEqual(first.map((o) => [o.artifact, o.action]), [
      ["taxonomy", "promoted"],
      ["market", "promoted"],
    ]);
    const taxonomy = await readPointer(join(config.artifacts, "taxonomy"));
    const market = await readPointer(join(config.artifacts, "market"));
    assert.equal(taxonomy, first[0].version);
    assert.equal(market, first[1].version);

    const second = await runRebuild(config);
    assert.deepEqual(second.map((o) => [o.artifact, o.action, o.version]), [
      ["taxonomy", "unchanged", taxonomy],
      ["market", "unchanged", market],
    ]);

    await Deno.writeTextFile(
      feed,
      JSON.stringify({
        "@type": "JobPosting",
        title: "Data Engineer",
        description: "Python and SQL.",
        datePosted: "2026-05-06",
        hiringOrganization: { name: "New Co" },
        jobLocation: { address: { addressCountry: "US" } },
      }) + "\n",
      { append: true },
    );
    const third = await runRebuild(config);
    assert.deepEqual(third.map((o) => [o.artifact, o.action]), [
      ["taxonomy", "unchanged"],
      ["market", "promoted"],
    ]);
    assert.equal(await readPointer(join(config.artifacts, "taxonomy")), taxonomy);
    const newer = await readPointer(join(config.artifacts, "market"));
    assert.notEqual(newer, market);
    assert.match(newer!, /^2026-05-06-/);

    assert.equal(await rollback(config.artifacts, "market"), market);
    assert.equal(await readPointer(join(config.artifacts, "market")), market);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("rebuild: a failing build promotes nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "test-rebuild-" });
  try {
    const feed = join(dir, "feed.ndjson");
    await Deno.copyFile(FIXTURE_FEED, feed);
    const configPath = join(dir, "rebuild.json");
    await Deno.writeTextFile(
      configPath,
      JSON.stringify({
        artifacts: "./artifacts",
        taxonomy: { onet: FIXTURE_ONET, embeddings: FIXTURE_EMBEDDINGS },
        market: { postings: ["./feed.ndjson"] },
      }),
    );
    const config = await readRebuildConfig(configPath);
    const first = await runRebuild(config);
    // Now the feed is mostly records without a title: the market build fails its threshold.
    await Deno.writeTextFile(
      feed,
      Array.from({ length: 5 }, () => JSON.stringify({ "@type": "JobPosting" })).join("\n"),
    );
    await assert.rejects(() => runRebuild(config), /over the threshold/);
    assert.equal(await readPointer(join(config.artifacts, "market")), first[1].version);
    await assert.rejects(
      () => readRebuildConfig(join(dir, "missing.json")),
      /missing\.json/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
