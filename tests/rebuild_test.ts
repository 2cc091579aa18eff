/** The scheduled rebuild job: change detection, all-or-nothing promotion, pruning, rollback. */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  FIXTURE_EMBEDDINGS,
  FIXTURE_FEED,
  FIXTURE_OEWS,
  FIXTURE_ONET,
  variantRelease,
} from "./helpers.ts";
import { type Progress, silentProgress } from "../build/progress.ts";
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
        taxonomy: { onet: FIXTURE_ONET, embeddings: FIXTURE_EMBEDDINGS, oews: FIXTURE_OEWS },
        market: { postings: ["./feed.ndjson"] },
      }),
    );
    const config = await readRebuildConfig(configPath);
    assert.equal(config.artifacts, join(dir, "artifacts"));
    assert.equal(config.taxonomy?.oews, FIXTURE_OEWS);

    const first = await runRebuild(config);
    assert.deepEqual(first.map((o) => [o.artifact, o.action]), [
      ["taxonomy", "promoted"],
      ["market", "promoted"],
    ]);
    const taxonomy = await readPointer(join(config.artifacts, "taxonomy"));
    const market = await readPointer(join(config.artifacts, "market"));
    assert.equal(taxonomy, first[0].version);
    assert.equal(market, first[1].version);
    // The OEWS file gives the taxonomy its size prior.
    const manifest = JSON.parse(
      await Deno.readTextFile(join(config.artifacts, "taxonomy", taxonomy!, "manifest.json")),
    );
    const employment = manifest.tables.find((t: { name: string }) =>
      t.name === "occupation_employment"
    );
    assert.equal(employment.source_status, "present");
    assert.ok(employment.rows > 0);

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

Deno.test("rebuild: a failure in the last step of the last build promotes nothing, and the CLI exits non-zero", async () => {
  const dir = await Deno.makeTempDir({ prefix: "test-rebuild-" });
  const release = await variantRelease("(rebuild late-failure variant)");
  try {
    const feed = join(dir, "feed.ndjson");
    await Deno.copyFile(FIXTURE_FEED, feed);
    const configPath = join(dir, "rebuild.json");
    const write = (onet: string) =>
      Deno.writeTextFile(
        configPath,
        JSON.stringify({
          artifacts: "./artifacts",
          taxonomy: { onet, embeddings: FIXTURE_EMBEDDINGS },
          market: { postings: ["./feed.ndjson"] },
        }),
      );
    await write(FIXTURE_ONET);
    const config = await readRebuildConfig(configPath);
    const first = await runRebuild(config);
    const before = {
      taxonomy: await readPointer(join(config.artifacts, "taxonomy")),
      market: await readPointer(join(config.artifacts, "market")),
    };
    assert.deepEqual(before, { taxonomy: first[0].version, market: first[1].version });

    // A changed release: the taxonomy builds (staged, not promoted), then the market build
    // fails at its very last step, publishing. Nothing may move.
    await write(release.dir);
    let seen = 0;
    const failing: Progress = {
      ...silentProgress,
      step(_i, _n, name) {
        if (name === "publish" && ++seen === 2) throw new Error("injected: disk full at publish");
      },
    };
    await assert.rejects(
      async () => runRebuild(await readRebuildConfig(configPath), failing),
      /injected/,
    );
    assert.equal(seen, 2, "the taxonomy published its staged version; the market failed");
    assert.deepEqual({
      taxonomy: await readPointer(join(config.artifacts, "taxonomy")),
      market: await readPointer(join(config.artifacts, "market")),
    }, before);

    // The CLI: a failing build exits non-zero and leaves `current` alone.
    await Deno.writeTextFile(
      feed,
      Array.from({ length: 5 }, () => JSON.stringify({ "@type": "JobPosting" })).join("\n"),
    );
    const cli = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../build/rebuild.ts", import.meta.url).pathname,
        "--config",
        configPath,
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.notEqual(cli.code, 0);
    assert.deepEqual({
      taxonomy: await readPointer(join(config.artifacts, "taxonomy")),
      market: await readPointer(join(config.artifacts, "market")),
    }, before);
  } finally {
    await release.cleanup();
    await Deno.remove(dir, { recursive: true });
  }
});
