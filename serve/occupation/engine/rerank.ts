/**
 * The reranker (issue 15): boosted regression trees that re-order a ranking's first
 * RERANK_TOP candidates, on top of the fused score. The linear fusion (engine/fusion.ts) weighs
 * each channel the same for every query; the trees learn where that is wrong, from the channel
 * values together with what the query is (its length, its role, how much of it is known) and where
 * the candidate stands (its score and gap to the first).
 *
 * Fitted at build time (engine/fusion.ts) on two folds, the fusion's (FUSION_FOLD: held-out titles
 * as O*NET and a posting write them, with a description, the catalog variants, and half of the
 * employer-style titles, which count RERANK_EMPLOYER_WEIGHT times) and RERANK_FOLD's held-out
 * titles, each ranked by the fused index built without them: Newton boosting of a listwise softmax
 * (each query's right answers share the probability mass), depth-limited trees on quantile bins.
 * Deterministic: same rankings, same trees. Stored in the artifact beside the fusion
 * (ranker_fusion.reranker) and in the engine snapshot.
 *
 * A query whose words are a title of some occupation is not re-ordered: the folds never hold one
 * (an exact title is the hand-set channels' to weigh).
 */

import { FUSION_FEATURES } from "./features.ts";

/** What the trees read of each candidate, in this order. */
export const RERANK_FEATURES = [
  // The fusion's channel values.
  ...FUSION_FEATURES,
  // The candidate in the ranking.
  "score",
  "gap_to_first",
  "rank",
  "exact",
  "semantic_only",
  // The query.
  "query_terms",
  "query_role",
  "known_term_share",
  "dropped_share",
  "description_used",
] as const;

/** Candidates the trees re-order (the most a ranking route returns). */
export const RERANK_TOP = 10;

/** The query roles in the order `query_role` numbers them. */
export const QUERY_ROLES = [
  "worker",
  "supervisor",
  "helper",
  "apprentice",
  "lead",
  "manager",
] as const;

/**
 * A fitted reranker. Trees are stored flat: node `i` is a leaf when `feature[i]` is -1 (its value
 * `value[i]`), else it sends a row whose `feature[i]` value is below `threshold[i]` to node
 * `left[i]` and the others to `left[i] + 1`. `roots` are the trees' first nodes. A candidate's
 * score moves by `scale` times the sum of its leaves.
 */
export interface Reranker {
  features: string[];
  scale: number;
  roots: number[];
  feature: number[];
  threshold: number[];
  left: number[];
  value: number[];
}

/** A reranker in typed arrays, as the ranking reads it (compileReranker). */
export interface CompiledReranker {
  scale: number;
  roots: Int32Array;
  feature: Int32Array;
  threshold: Float64Array;
  left: Int32Array;
  value: Float64Array;
}

/** The reranker's arrays as typed arrays: the trees are walked for every ranking. */
export function compileReranker(model: Reranker): CompiledReranker {
  return {
    scale: model.scale,
    roots: Int32Array.from(model.roots),
    feature: Int32Array.from(model.feature),
    threshold: Float64Array.from(model.threshold),
    left: Int32Array.from(model.left),
    value: Float64Array.from(model.value),
  };
}

/**
 * How far the trees move each of `n` candidates (in score units) into `out`: `rows` holds their
 * RERANK_FEATURES values, one candidate after another. Tree by tree, so a tree's nodes are read
 * once for all the candidates.
 */
export function rerankDeltas(
  model: CompiledReranker,
  rows: Float64Array,
  n: number,
  out: Float64Array,
): void {
  const { feature, threshold, left, value, roots } = model;
  const d = RERANK_FEATURES.length;
  out.fill(0, 0, n);
  for (let t = 0; t < roots.length; t++) {
    const root = roots[t];
    for (let j = 0, at = 0; j < n; j++, at += d) {
      let node = root;
      let f = feature[node];
      while (f >= 0) {
        node = rows[at + f] < threshold[node] ? left[node] : left[node] + 1;
        f = feature[node];
      }
      out[j] += value[node];
    }
  }
  for (let j = 0; j < n; j++) out[j] *= model.scale;
}

/** One query of the fit: its candidates' rows (RERANK_FEATURES each), scores and labels. */
export interface RerankQuery {
  rows: number[][];
  scores: number[];
  right: boolean[];
  /** How many times the query counts (default 1). */
  weight?: number;
}

/**
 * Settings of the fit. The defaults were chosen on the quality bench's fold 2 at ranker 131: 100
 * trees at a learning rate of 0.3 gained as much as 300 at 0.1 (133 and 122 more right answers of
 * 38,122) for a third of the walk a ranking pays (notes/issue15.md, section 53).
 */
export interface RerankOptions {
  rounds?: number;
  depth?: number;
  learningRate?: number;
  /** Ridge on a leaf's Newton step (in units of summed curvature). */
  lambda?: number;
  /** Least summed curvature on each side of a split. */
  minCurvature?: number;
  /** Temperature of the softmax over scores (score units per logit). */
  scale?: number;
}

const BINS = 32;
/**
 * Rows read for the quantile bin edges: every QUANTILE_STEP-th. All of them since ranker 139: a
 * sample by position moved every edge when one query upstream gained or lost a candidate. (It was
 * not what makes refits churn: two fits that differ only in it change the first answer of 1,275 of
 * the 22,273 LinkedIn titles; notes/issue15.md, section 56.)
 */
const QUANTILE_STEP = 1;

/**
 * Fits the trees. Queries without a right answer among their candidates, or with one candidate,
 * teach nothing and are left out.
 */
export function fitReranker(
  queries: readonly RerankQuery[],
  options: RerankOptions = {},
): { model: Reranker; report: Record<string, number> } {
  const rounds = options.rounds ?? 100;
  const depth = options.depth ?? 4;
  const rate = options.learningRate ?? 0.3;
  const lambda = options.lambda ?? 10;
  const minH = options.minCurvature ?? 20;
  const scale = options.scale ?? 0.1;
  const d = RERANK_FEATURES.length;
  const used = queries.filter((q) => q.rows.length > 1 && q.right.some((r) => r));
  const starts = new Int32Array(used.length + 1);
  for (let q = 0; q < used.length; q++) starts[q + 1] = starts[q] + used[q].rows.length;
  const n = starts[used.length];
  const weight = Float64Array.from(used, (q) => q.weight ?? 1);
  // Bin edges per feature: distinct quantiles of a sample of the rows.
  const edges: Float64Array[] = [];
  for (let f = 0; f < d; f++) {
    const sample: number[] = [];
    let i = 0;
    for (const q of used) {
      for (const row of q.rows) if (i++ % QUANTILE_STEP === 0) sample.push(row[f]);
    }
    sample.sort((a, b) => a - b);
    const e: number[] = [];
    for (let b = 1; b < BINS; b++) {
      const v = sample[Math.floor(b * sample.length / BINS)];
      if (v !== undefined && (e.length === 0 || v > e[e.length - 1])) e.push(v);
    }
    edges.push(Float64Array.from(e));
  }
  // Column-major bins: bin of row i on feature f at f * n + i (the count of edges <= value).
  const bins = new Uint8Array(d * n);
  const margin = new Float64Array(n);
  const right = new Uint8Array(n);
  {
    let i = 0;
    for (const q of used) {
      for (let j = 0; j < q.rows.length; j++, i++) {
        for (let f = 0; f < d; f++) bins[f * n + i] = upperBound(edges[f], q.rows[j][f]);
        margin[i] = q.scores[j] / scale;
        right[i] = q.right[j] ? 1 : 0;
      }
    }
  }
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const nodes: { feature: number; threshold: number; left: number; value: number }[] = [];
  const roots: number[] = [];
  let loss = 0;
  const gradients = () => {
    loss = 0;
    for (let q = 0; q < used.length; q++) {
      const a = starts[q];
      const b = starts[q + 1];
      let max = -Infinity;
      for (let i = a; i < b; i++) max = Math.max(max, margin[i]);
      let total = 0;
      let mass = 0;
      for (let i = a; i < b; i++) {
        const e = Math.exp(margin[i] - max);
        g[i] = e;
        total += e;
        if (right[i]) mass += e;
      }
      loss -= weight[q] * Math.log(mass / total);
      for (let i = a; i < b; i++) {
        const p = g[i] / total;
        // The right answers' posterior share minus the model's: the gradient of the log of the
        // probability mass on right answers.
        g[i] = weight[q] * ((right[i] ? g[i] / mass : 0) - p);
        h[i] = weight[q] * Math.max(1e-6, p * (1 - p));
      }
    }
    return loss / used.length;
  };
  const firstLoss = gradients();
  const histogram = (rows: Int32Array): [Float64Array, Float64Array] => {
    const hg = new Float64Array(d * BINS);
    const hh = new Float64Array(d * BINS);
    for (let f = 0; f < d; f++) {
      const col = f * n;
      const off = f * BINS;
      for (let r = 0; r < rows.length; r++) {
        const i = rows[r];
        const b = off + bins[col + i];
        hg[b] += g[i];
        hh[b] += h[i];
      }
    }
    return [hg, hh];
  };
  // Grows a node over its rows (and their histograms, when it may split); a leaf moves its rows'
  // margins by its value at once.
  const grow = (rows: Int32Array, level: number, hist: [Float64Array, Float64Array] | null) => {
    let G = 0;
    let H = 0;
    for (let r = 0; r < rows.length; r++) {
      G += g[rows[r]];
      H += h[rows[r]];
    }
    const at = nodes.length;
    const value = rate * G / (H + lambda);
    nodes.push({ feature: -1, threshold: 0, left: -1, value });
    const leaf = () => {
      for (let r = 0; r < rows.length; r++) margin[rows[r]] += value;
      return at;
    };
    if (hist === null || level === depth || H < 2 * minH) return leaf();
    const [histG, histH] = hist;
    const parent = G * G / (H + lambda);
    let bestGain = 1e-9;
    let bestF = -1;
    let bestB = -1;
    for (let f = 0; f < d; f++) {
      let gl = 0;
      let hl = 0;
      const nb = edges[f].length;
      for (let b = 0; b < nb; b++) {
        gl += histG[f * BINS + b];
        hl += histH[f * BINS + b];
        const hr = H - hl;
        if (hl < minH || hr < minH) continue;
        const gr = G - gl;
        const gain = gl * gl / (hl + lambda) + gr * gr / (hr + lambda) - parent;
        if (gain > bestGain) [bestGain, bestF, bestB] = [gain, f, b];
      }
    }
    if (bestF < 0) return leaf();
    let nl = 0;
    const col = bestF * n;
    for (let r = 0; r < rows.length; r++) if (bins[col + rows[r]] <= bestB) nl++;
    const leftRows = new Int32Array(nl);
    const rightRows = new Int32Array(rows.length - nl);
    for (let r = 0, a = 0, c = 0; r < rows.length; r++) {
      if (bins[col + rows[r]] <= bestB) leftRows[a++] = rows[r];
      else rightRows[c++] = rows[r];
    }
    // The smaller child's histograms are counted, the larger's are the parent's less them.
    let leftHist: [Float64Array, Float64Array] | null = null;
    let rightHist: [Float64Array, Float64Array] | null = null;
    if (level + 1 < depth) {
      const small = histogram(nl <= rows.length - nl ? leftRows : rightRows);
      const large: [Float64Array, Float64Array] = [histG, histH];
      for (let k = 0; k < histG.length; k++) {
        histG[k] -= small[0][k];
        histH[k] -= small[1][k];
      }
      [leftHist, rightHist] = nl <= rows.length - nl ? [small, large] : [large, small];
    }
    // Children are adjacent: the pair is reserved, then each child grown and copied into it.
    const pair = nodes.length;
    nodes.push({ feature: -1, threshold: 0, left: -1, value: 0 });
    nodes.push({ feature: -1, threshold: 0, left: -1, value: 0 });
    const l = grow(leftRows, level + 1, leftHist);
    const rr = grow(rightRows, level + 1, rightHist);
    nodes[pair] = nodes[l];
    nodes[pair + 1] = nodes[rr];
    nodes[at] = { feature: bestF, threshold: edges[bestF][bestB], left: pair, value: 0 };
    return at;
  };
  const all = Int32Array.from({ length: n }, (_, i) => i);
  for (let round = 0; round < rounds; round++) {
    roots.push(grow(all, 0, depth > 0 ? histogram(all) : null));
    gradients();
  }
  const model = compact(nodes, roots, scale);
  return {
    model,
    report: {
      queries: queries.length,
      queries_fitted: used.length,
      candidates: n,
      trees: roots.length,
      nodes: model.feature.length,
      depth,
      learning_rate: rate,
      lambda,
      scale,
      mean_log_loss_before: round6(firstLoss),
      mean_log_loss_after: round6(gradients()),
    },
  };
}

/**
 * The flat model of the grown nodes. A node's copy into its placeholder leaves the original
 * (grown at the end of the list) unreferenced; compacting renumbers only the reachable ones.
 */
function compact(
  nodes: readonly { feature: number; threshold: number; left: number; value: number }[],
  roots: readonly number[],
  scale: number,
): Reranker {
  const model: Reranker = {
    features: [...RERANK_FEATURES],
    scale,
    roots: [],
    feature: [],
    threshold: [],
    left: [],
    value: [],
  };
  const place = (node: number): number => {
    const at = model.feature.length;
    const { feature, threshold, value } = nodes[node];
    model.feature.push(feature);
    model.threshold.push(feature >= 0 ? threshold : 0);
    model.left.push(-1);
    model.value.push(feature >= 0 ? 0 : value);
    return at;
  };
  const fill = (src: number, at: number) => {
    const node = nodes[src];
    if (node.feature < 0) return;
    const l = place(node.left);
    place(node.left + 1);
    model.left[at] = l;
    fill(node.left, l);
    fill(node.left + 1, l + 1);
  };
  for (const root of roots) {
    const at = place(root);
    model.roots.push(at);
    fill(root, at);
  }
  return model;
}

/** The count of edges at or below the value (a sorted array's upper bound). */
function upperBound(edges: Float64Array, v: number): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v >= edges[mid]) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
