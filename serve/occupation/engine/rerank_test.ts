import assert from "node:assert/strict";
import {
  compileReranker,
  fitReranker,
  RERANK_FEATURES,
  rerankDeltas,
  type Reranker,
  type RerankQuery,
} from "./rerank.ts";
import { DEFAULT_WEIGHTS, type IndexOccupation, OccupationIndex } from "./index.ts";

const D = RERANK_FEATURES.length;
const at = (name: typeof RERANK_FEATURES[number]) => RERANK_FEATURES.indexOf(name);

/** A one-split tree: candidates whose `feature` is below `threshold` move by `low`, the others by `high`. */
function oneSplit(
  feature: number,
  threshold: number,
  low: number,
  high: number,
  scale = 1,
): Reranker {
  return {
    features: [...RERANK_FEATURES],
    scale,
    roots: [0],
    feature: [feature, -1, -1],
    threshold: [threshold, 0, 0],
    left: [1, -1, -1],
    value: [0, low, high],
  };
}

Deno.test("rerankDeltas walks every tree for every candidate, times the scale", () => {
  const model = compileReranker(oneSplit(at("rank"), 0.5, 0, 2, 0.5));
  const rows = new Float64Array(3 * D);
  for (let j = 0; j < 3; j++) rows[j * D + at("rank")] = j;
  const out = new Float64Array(3).fill(9);
  rerankDeltas(model, rows, 3, out);
  assert.deepEqual([...out], [0, 1, 1], "rank 0 stays, ranks 1 and 2 move by 0.5 * 2");
  // A second tree adds to the first.
  const two = compileReranker({
    ...oneSplit(at("rank"), 0.5, 0, 2, 0.5),
    roots: [0, 3],
    feature: [at("rank"), -1, -1, at("exact"), -1, -1],
    threshold: [0.5, 0, 0, 0.5, 0, 0],
    left: [1, -1, -1, 4, -1, -1],
    value: [0, 0, 2, 0, 0, 4],
  });
  rows[2 * D + at("exact")] = 1;
  rerankDeltas(two, rows, 3, out);
  assert.deepEqual([...out], [0, 1, 3]);
});

Deno.test("fitReranker learns what the fused score misses", () => {
  // Three candidates a query; the right one is the exact match, which the fused score puts
  // second.
  const query = (exactRight: boolean): RerankQuery => {
    const rows = [0, 1, 2].map((j) => {
      const row = new Array(D).fill(0);
      row[at("rank")] = j;
      row[at("score")] = 1 - 0.05 * j;
      row[at("exact")] = exactRight && j === 1 ? 1 : 0;
      return row;
    });
    return { rows, scores: [1, 0.95, 0.9], right: [false, true, false] };
  };
  const { model, report } = fitReranker(Array.from({ length: 200 }, () => query(true)));
  assert.ok(report.mean_log_loss_after < report.mean_log_loss_before);
  const compiled = compileReranker(model);
  const rows = new Float64Array(query(true).rows.flat());
  const out = new Float64Array(3);
  rerankDeltas(compiled, rows, 3, out);
  assert.ok(0.95 + out[1] > 1 + out[0], "the exact match now comes first");
  assert.ok(0.95 + out[1] > 0.9 + out[2]);
  // Deterministic: the same queries give the same trees.
  assert.deepEqual(fitReranker(Array.from({ length: 200 }, () => query(true))).model, model);
  // Queries without a right answer among their candidates teach nothing.
  const none = fitReranker([{ ...query(true), right: [false, false, false] }]);
  assert.equal(none.report.queries_fitted, 0);
});

Deno.test("OccupationIndex: the reranker re-orders the first candidates, not an exact title", () => {
  const occupation = (onetCode: string, title: string): IndexOccupation => ({
    onetCode,
    title,
    description: "",
    tasks: [],
    skills: [],
    technologies: [],
  });
  const source = {
    occupations: [
      occupation("47-2061.00", "Construction Laborers"),
      occupation("53-7062.00", "Laborers and Freight, Stock, and Material Movers, Hand"),
    ],
    titles: [
      { onetCode: "47-2061.00", kind: "alternate" as const, title: "Site Laborer" },
      { onetCode: "53-7062.00", kind: "alternate" as const, title: "Warehouse Laborer" },
    ],
    vectors: null,
  };
  const weights = [
    DEFAULT_WEIGHTS.best_title,
    DEFAULT_WEIGHTS.occ_cover,
    DEFAULT_WEIGHTS.pair,
    DEFAULT_WEIGHTS.stem_cover,
    DEFAULT_WEIGHTS.context,
    DEFAULT_WEIGHTS.semantic,
    DEFAULT_WEIGHTS.prior,
    DEFAULT_WEIGHTS.title_agg,
    DEFAULT_WEIGHTS.role_match,
    -DEFAULT_WEIGHTS.role_mismatch,
    DEFAULT_WEIGHTS.description,
    DEFAULT_WEIGHTS.title_vote,
    DEFAULT_WEIGHTS.head_occ,
    DEFAULT_WEIGHTS.manager_match,
    DEFAULT_WEIGHTS.rest_cover,
    DEFAULT_WEIGHTS.domain_rest,
  ];
  const plain = new OccupationIndex({ ...source, fusion: { weights } });
  // A tree that lifts every candidate but the first by 5.
  const lifted = new OccupationIndex({
    ...source,
    fusion: { weights, reranker: oneSplit(at("rank"), 0.5, 0, 5) },
  });
  const rank = (index: OccupationIndex, title: string) =>
    index.rank({ title }, { limit: 2, semantic: false, features: true });
  const before = rank(plain, "Laborer");
  const after = rank(lifted, "Laborer");
  assert.equal(before.results.length, 2);
  assert.equal(after.results[0].onetCode, before.results[1].onetCode, "the second moved up");
  assert.equal(after.results[0].score, before.results[1].score + 5);
  // The rows the fit reads are those of the fused order, the same with or without trees.
  assert.deepEqual(after.rerankRows, before.rerankRows);
  assert.equal(after.rerankRows![1][at("rank")], 1);
  // A query whose words are a title of some occupation is left in the fused order.
  const exact = rank(lifted, "Warehouse Laborer");
  assert.equal(exact.sameTitleOccupations, 1);
  assert.deepEqual(
    exact.results.map((r) => r.onetCode),
    rank(plain, "Warehouse Laborer").results.map((r) => r.onetCode),
  );
  assert.equal(exact.rerankRows, undefined);
  // A reranker fitted for other features is not used.
  const stale = new OccupationIndex({
    ...source,
    fusion: { weights, reranker: { ...oneSplit(0, 0.5, 0, 5), features: ["score"] } },
  });
  assert.deepEqual(rank(stale, "Laborer").results, before.results);
});
