/**
 * Scoring held-out folds and fitting the calibration: shared by the artifact build (which stores
 * the model) and `deno task bench:quality` (which measures it on another fold).
 */
import { calibrationReport, predict } from "./logistic.ts";
import { type Calibration, confidenceFeatures, fitCalibration } from "./confidence.ts";
import { CALIBRATION_FOLD, type DevExample, FOLDS, splitFold } from "./devset.ts";
import { type IndexSource, OccupationIndex, RANKER_VERSION, type Ranking } from "./index.ts";

/** The two retrieval paths a server can run; each has its own calibration. */
export type Channel = "hybrid" | "lexical";

/** One scored example. */
export interface ScoredExample {
  example: DevExample;
  ranking: Ranking;
  /** 1 when the top result is one of the example's occupations (O*NET-SOC level). */
  correct: number;
}

/** Builds the index without the fold and ranks every held-out example. */
export function scoreFold(
  source: IndexSource,
  fold: number,
  channel: Channel,
  limit = 10,
): { index: OccupationIndex; scored: ScoredExample[] } {
  const { index: titles, examples } = splitFold(source.titles, fold);
  const index = new OccupationIndex({ ...source, titles });
  const scored = examples.map((example) => {
    const ranking = index.rank({ title: example.query }, { limit, semantic: channel === "hybrid" });
    const top = ranking.results[0]?.onetCode;
    return { example, ranking, correct: top && example.accept.includes(top) ? 1 : 0 };
  });
  return { index, scored };
}

/** Fits the calibration of one channel on the calibration fold. */
export function fitChannel(source: IndexSource, channel: Channel): Calibration {
  const { scored } = scoreFold(source, CALIBRATION_FOLD, channel);
  const answered = scored.filter((s) => s.ranking.results.length > 0);
  const features = answered.map((s) => confidenceFeatures(s.ranking));
  const labels = answered.map((s) => s.correct);
  const model = fitCalibration(features, labels);
  const { ece, brier } = calibrationReport(
    features.map((x) => predict(model, x)),
    labels,
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
      answered: answered.length,
      top1_accuracy: round(labels.reduce((a, b) => a + b, 0) / (labels.length || 1)),
      in_sample_ece: ece,
      in_sample_brier: brier,
      target: "top result is one of the held-out title's O*NET-SOC codes",
    },
  };
}

const round = (x: number) => Math.round(x * 10000) / 10000;
