/**
 * `deno task diff-releases`: the report between the 29.3 sample and an edited copy of the same
 * rows in the 30.1 layout, where every change is known: one occupation renamed, titles and a
 * technology added and removed, one rating moved.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { buildTaxonomy } from "../build/pipeline.ts";
import { diffReleases, resolveSide } from "../build/diff_releases.ts";
import { withTempDir } from "./fs.ts";
import { FIXTURE_ONET } from "./helpers.ts";

const LEAN_30_1 = fileURLToPath(new URL("../fixtures/onet-sample-30-1", import.meta.url));

/** Rewrites a release file's text. */
async function edit(dir: string, file: string, change: (text: string) => string) {
  const path = join(dir, file);
  const before = await Deno.readTextFile(path);
  const after = change(before);
  assert.notEqual(after, before, `edit of ${file} changed nothing`);
  await Deno.writeTextFile(path, after);
}

Deno.test("diff-releases lists what changed between two builds, and only that", async () => {
  await withTempDir("diff-releases-", async (tmp) => {
    const onet = join(tmp, "onet");
    await Deno.mkdir(onet);
    for await (const entry of Deno.readDir(LEAN_30_1)) {
      await Deno.copyFile(join(LEAN_30_1, entry.name), join(onet, entry.name));
    }
    await edit(
      onet,
      "Occupation Data.txt",
      (t) => t.replace("15-1252.00\tSoftware Developers\t", "15-1252.00\tSoftware Engineers\t"),
    );
    // (not "Developer": it is also a reported title of 15-1252.00, so it would not be gone)
    await edit(onet, "Alternate Titles.txt", (t) =>
      t.replace(
        "15-1252.00\tFull Stack Developer\tn/a\t10\r\n",
        "15-1252.00\tPrompt Engineer\tn/a\t10\r\n15-1252.00\tAI Engineer\tn/a\t10\r\n",
      ));
    await edit(
      onet,
      "Technology Skills.txt",
      (t) => t.replace("15-1252.00\tDocker\t", "15-1252.00\tPodman\t"),
    );
    await edit(
      onet,
      "Skills.txt",
      (t) =>
        t.replace(
          "15-1252.00\t2.B.3.e\tProgramming\tIM\t4.4\t",
          "15-1252.00\t2.B.3.e\tProgramming\tIM\t4.9\t",
        ),
    );

    const artifacts = join(tmp, "artifacts");
    await buildTaxonomy(FIXTURE_ONET, artifacts, undefined, { embeddings: null });
    await buildTaxonomy(onet, artifacts, undefined, { embeddings: null });
    // releases resolve to their newest built version under the artifacts folder
    const a = await resolveSide("29.3", artifacts);
    const b = await resolveSide("30.1", artifacts);
    assert.equal(a.release, "29.3");
    assert.equal(b.release, "30.1");
    const report = (await diffReleases(a, b, 5)).join("\n");

    assert.match(
      report,
      /^O\*NET 29\.3 \(Sample extract for tests and first run\) -> O\*NET 30\.1/,
    );
    assert.match(report, /~ 15-1252\.00 Software Developers -> Software Engineers/);
    assert.doesNotMatch(report, /^ {2}[+-] \d/m); // no occupation added or removed
    assert.match(
      report,
      /titles .*\(1 occupations changed; top 5\)\n {2}15-1252\.00 Software Engineers: \+2 -1 titles; new: AI Engineer, Prompt Engineer\n\n/,
    );
    assert.match(
      report,
      /technologies \(1 occupations changed; top 5\)\n {2}15-1252\.00 Software Engineers: \+1 -1 technologies; new: Podman\n/,
    );
    assert.match(report, /tasks \(0 occupations changed; top 5\)\n\n/);
    assert.match(
      report,
      /\(1 occupations re-rated, 0 rated for the first time; top 5 by total change\)\n {2}15-1252\.00 Software Engineers: total \|change\| 0\.50 over \d+ elements; most: Programming 4\.4 -> 4\.9\n/,
    );
    assert.match(report, /\* Podman: 1 occupations/);

    await assert.rejects(resolveSide("28.1", artifacts), /no taxonomy artifact/);
  });
});
