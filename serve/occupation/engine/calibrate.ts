/**
 * Scoring held-out folds and fitting the calibration: shared by the artifact build (which stores
 * the model) and `deno task bench:quality` (which measures it on another fold).
 */
import { calibrationReport, predict } from "./logistic.ts";
import {
  type Calibration,
  type CalibrationModel,
  CONFIDENCE_FEATURES,
  confidenceFeatures,
  fitCalibration,
  segmentModel,
} from "./confidence.ts";
import {
  CALIBRATION_FOLD,
  catalogVariants,
  describedExamples,
  type DevExample,
  employerExamples,
  type EmployerTitle,
  fnv1a,
  FOLDS,
  postingVariant,
  splitFold,
} from "./devset.ts";
import {
  DEFAULT_WEIGHTS,
  type IndexSource,
  type IndexTitle,
  OccupationIndex,
  RANKER_VERSION,
  type RankerWeights,
  type Ranking,
} from "./index.ts";
import { normalizeTitle } from "../../text/normalize.ts";

/** The two retrieval paths a server can run; each has its own calibration. */
export type Channel = "hybrid" | "lexical";

/** The candidate retrieval policy string of a channel and release (spec 2.5). */
export function retrievalPolicy(channel: Channel, release: string): string {
  return channel === "hybrid"
    ? `svc-onet-hybrid-shortlist-${release}-v1`
    : `svc-onet-candidate-retrieval-${release}-v1`;
}

/** One scored example. */
export interface ScoredExample {
  example: DevExample;
  ranking: Ranking;
  /** 1 when the top result is one of the example's occupations (O*NET-SOC level). */
  correct: number;
}

/** What a fold's dev set holds beyond the held-out titles themselves. */
export interface FoldOptions {
  /** Hand-labelled employer-style titles to add (fixtures/occupation-dev). */
  employer?: EmployerTitle[];
  /** Which half of them (see employerExamples); null: all. */
  employerHalf?: 0 | 1 | null;
  /** Ranker weights (default: DEFAULT_WEIGHTS); for tuning and the quality bench. */
  weights?: Readonly<RankerWeights>;
}

/**
 * The index source without the fold and every dev example of it: held-out titles as O*NET and
 * a posting write them, with a description, catalog-style variants, and employer titles.
 */
export function foldExamples(
  source: IndexSource,
  fold: number,
  options: FoldOptions = {},
): { source: IndexSource; titles: IndexTitle[]; examples: DevExample[] } {
  const { index: titles, examples: titled } = splitFold(source.titles, fold);
  const { occupations, examples: described } = describedExamples(
    source.occupations,
    titled,
    fold,
  );
  const variants = catalogVariants(source.occupations, source.titles, titled);
  const employer = options.employer
    ? employerExamples(
      options.employer,
      source.occupations.map((o) => o.onetCode),
      options.employerHalf ?? null,
    )
    : [];
  return {
    source: { ...source, occupations, titles },
    titles,
    examples: [...titled, ...described, ...variants, ...employer],
  };
}

/** Builds the index without the fold and ranks every held-out example. */
export function scoreFold(
  source: IndexSource,
  fold: number,
  channel: Channel,
  limit = 10,
  options: FoldOptions = {},
): { index: OccupationIndex; titles: IndexTitle[]; scored: ScoredExample[] } {
  const { source: held, titles, examples } = foldExamples(source, fold, options);
  const index = new OccupationIndex(held, options.weights ?? DEFAULT_WEIGHTS);
  const scored = examples.map((example) => score(index, example, channel, limit));
  return { index, titles, scored };
}

function score(
  index: OccupationIndex,
  example: DevExample,
  channel: Channel,
  limit: number,
): ScoredExample {
  const ranking = index.rank(
    { title: example.query, description: example.description },
    { limit, semantic: channel === "hybrid" },
  );
  const top = ranking.results[0]?.onetCode;
  return { example, ranking, correct: top && example.accept.includes(top) ? 1 : 0 };
}

/**
 * Titles the index does have, as queries: clients often send exactly an O*NET title, and held-out
 * titles never match one exactly, so without these the model would not know what an exact match
 * is worth. One normalised form in SEEN_SAMPLE, with every occupation listing it as a right
 * answer, as written and as a posting would write it.
 */
export function seenExamples(titles: IndexTitle[]): DevExample[] {
  const byNorm = new Map<string, { title: string; accept: Set<string> }>();
  for (const t of titles) {
    const norm = normalizeTitle(t.title);
    if (!norm || fnv1a(norm) % SEEN_SAMPLE !== 0) continue;
    const entry = byNorm.get(norm) ?? { title: t.title, accept: new Set<string>() };
    entry.accept.add(t.onetCode);
    byNorm.set(norm, entry);
  }
  return [...byNorm].sort((a, b) => a[0] < b[0] ? -1 : 1).flatMap(([norm, e]) => {
    const accept = [...e.accept].sort();
    return [
      { query: e.title, variant: "onet" as const, accept },
      { query: postingVariant(e.title, fnv1a(norm)), variant: "posting" as const, accept },
    ];
  });
}

/**
 * How many times an employer-style title counts in the calibration fit. 5 while they were 456;
 * with the read blind rounds among them (3,486 in the fitted half), 1: at 2 and 5 the O*NET-worded
 * subsets went over-confident (ECE 0.036 and 0.049) for an employer-style ECE of 0.056 and 0.041;
 * at 1, 0.029 and 0.068 (notes/issue15.md, section 48).
 */
const EMPLOYER_WEIGHT = 1;

/**
 * A seen title that several occupations list ("Teacher") is right by O*NET's labels whichever of
 * them comes first, but a client who sends it means one of them: a right answer counts as right
 * with the weight of `intent` (the probability that the client means the top result) and wrong
 * with the rest. Rows are appended; the first ones keep their order.
 */
export function splitSharedTitles(
  features: number[][],
  labels: number[],
  weights: number[],
  intent: number[],
): void {
  for (let i = 0, n = intent.length; i < n; i++) {
    const p = intent[i];
    if (p >= 1 || labels[i] === 0) continue;
    features.push(features[i]);
    labels.push(0);
    weights.push(weights[i] * (1 - p));
    weights[i] *= p;
  }
}

/**
 * The probability that a client sending a title several occupations list means `top`, one of
 * them: the occupations in proportion to their OEWS employment (more people hold the title in a
 * large occupation than in a small one), mixed with an even split (INTENT_EVEN) for occupations
 * whose size says little; an even split alone without employment figures. One occupation: 1.
 */
export function titleIntent(
  top: string,
  accept: readonly string[],
  employment: ReadonlyMap<string, number> | undefined,
): number {
  const k = accept.length;
  if (k < 2) return 1;
  const sizes = accept.map((code) => employment?.get(code) ?? 0);
  const total = sizes.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return 1 / k;
  const share = (employment?.get(top) ?? 0) / total;
  return INTENT_EVEN / k + (1 - INTENT_EVEN) * share;
}

/** Weight of the even split in titleIntent. */
const INTENT_EVEN = 0.5;

/** Right and wrong exact-match examples each needed for a model of their own. */
const MIN_SEGMENT_OUTCOMES = 50;

/** One in this many title forms of the index joins the calibration set as a seen title. */
const SEEN_SAMPLE = 10;

/** Fits the calibration of one channel on the calibration fold plus a sample of seen titles. */
export function fitChannel(
  source: IndexSource,
  channel: Channel,
  options: FoldOptions = {},
): Calibration {
  const { index, titles, scored: held } = scoreFold(
    source,
    CALIBRATION_FOLD,
    channel,
    10,
    options,
  );
  const seen = seenExamples(titles).map((example) => score(index, example, channel, 10));
  const scored = [...held, ...seen];
  const answered = scored.filter((s) => s.ranking.results.length > 0);
  const features = answered.map((s) => confidenceFeatures(s.ranking));
  const labels = answered.map((s) => s.correct);
  // The hand-labelled employer-style titles are fewer than the O*NET ones, and unlike them (real
  // employer wording): each counts EMPLOYER_WEIGHT times.
  const weights = answered.map((s) => s.example.variant === "employer" ? EMPLOYER_WEIGHT : 1);
  const nAnswered = answered.length;
  const seenSet = new Set(seen);
  const intent = answered.map((s) =>
    seenSet.has(s) && s.correct
      ? titleIntent(s.ranking.results[0].onetCode, s.example.accept, source.employment)
      : 1
  );
  splitSharedTitles(features, labels, weights, intent);
  // One model for rankings whose top result has the query as a title, one for the rest
  // (CalibrationModel says why).
  // With too few exact matches of either outcome (a small release) one model covers all.
  const at = CONFIDENCE_FEATURES.indexOf("exact_title");
  const exact = features.map((f) => f[at] === 1);
  const exactLabels = labels.filter((_, i) => exact[i]);
  const exactSum = exactLabels.reduce((a, b) => a + b, 0);
  const segmented = Math.min(exactSum, exactLabels.length - exactSum) >= MIN_SEGMENT_OUTCOMES;
  const part = <T>(list: T[], want: boolean) =>
    segmented ? list.filter((_, i) => exact[i] === want) : list;
  const model: CalibrationModel = fitCalibration(
    part(features, false),
    part(labels, false),
    part(weights, false),
  );
  if (segmented) {
    model.exact = fitCalibration(part(features, true), part(labels, true), part(weights, true));
  }
  // The report reads each answered example once, with its label as O*NET's codes give it.
  const { ece, brier } = calibrationReport(
    answered.slice(0, nAnswered).map((s, i) =>
      predict(segmentModel(model, s.ranking), features[i])
    ),
    labels.slice(0, nAnswered),
  );
  return {
    ranker_version: RANKER_VERSION,
    method: "logistic_regression",
    model,
    report: {
      channel,
      fold: CALIBRATION_FOLD,
      folds: FOLDS,
      examples: scored.length,
      held_out_examples: held.length,
      seen_examples: seen.length,
      answered: nAnswered,
      top1_accuracy: round(
        labels.slice(0, nAnswered).reduce((a, b) => a + b, 0) / (nAnswered || 1),
      ),
      in_sample_ece: ece,
      in_sample_brier: brier,
      target: "top result is one of the query title's O*NET-SOC codes (held-out and seen titles)",
    },
  };
}

const round = (x: number) => Math.round(x * 10000) / 10000;
