import assert from "node:assert/strict";
import { chunkText } from "./chunk.ts";
import { type Chunker, evaluateReports, loadLabelledSet } from "./evaluate.ts";

const SET = new URL("../../fixtures/grounding/labelled_reports.json", import.meta.url).pathname;

/** The production chunker over a Markdown source. */
const chunker: Chunker = (text) =>
  chunkText({ content_type: "text/markdown", text, page_starts: [0] });

/** A small-chunk variant: one chunk per paragraph-sized piece, to stress citation precision. */
const smallChunker: Chunker = (text) =>
  chunkText({ content_type: "text/markdown", text, page_starts: [0] }, {
    minChars: 80,
    maxChars: 200,
    headingBreakChars: 40,
  });

Deno.test("labelled set: citation precision >= 0.95 and every must-abstain case abstains", async () => {
  const set = await loadLabelledSet(SET);
  assert.ok(set.cases.length >= 8 && set.cases.length <= 12);
  assert.ok(set.cases.filter((c) => c.expected.abstain).length >= 3);
  for (const chunk of [chunker, smallChunker]) {
    const result = evaluateReports(set, chunk);
    assert.ok(
      result.citation_precision >= 0.95,
      JSON.stringify(result.cases.flatMap((c) => c.unsupported)),
    );
    for (const c of result.cases) {
      const expected = set.cases.find((x) => x.id === c.id)!.expected;
      if (expected.abstain) assert.ok(c.abstained, `${c.id} must abstain`);
    }
    assert.equal(result.abstention_accuracy, 1);
    assert.equal(result.conflict_accuracy, 1);
    assert.ok(result.citation_recall >= 0.7, String(result.citation_recall));
    assert.ok(result.statement_recall >= 0.8, String(result.statement_recall));
  }
});

Deno.test("evaluation is strict: citing an unlabelled source lowers precision", async () => {
  const set = await loadLabelledSet(SET);
  const one = set.cases.filter((c) => c.id === "ds_two_postings");
  const base = evaluateReports({ ...set, cases: one }, chunker);
  const relabelled = structuredClone(one);
  // Drop every label of one source: its citations become unsupported.
  for (const s of relabelled[0].expected.statements) {
    s.support = s.support.filter((x) => x.source_id !== "ds_globex");
  }
  relabelled[0].expected.statements = relabelled[0].expected.statements
    .filter((s) => s.support.length > 0);
  const worse = evaluateReports({ ...set, cases: relabelled }, chunker);
  assert.ok(worse.citation_precision < base.citation_precision);
});
