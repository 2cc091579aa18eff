/** Logistic regression (fitted by Newton's method with a small ridge) and calibration metrics. */

/**
 * A fitted model: one weight per feature plus an intercept (last), and the range of each feature
 * in the rows it was fitted on. A feature outside that range is clamped to it before the model
 * reads it: squared features extrapolate badly (a one-word title many occupations share, "Engineer",
 * scored above every fitted example and came out at 1.00).
 */
export interface LogisticModel {
  features: string[];
  weights: number[];
  /** Smallest and largest value of each feature in the fitted rows (absent in older models). */
  lower?: number[];
  upper?: number[];
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-Math.max(-35, Math.min(35, z))));

/** Probability the model gives to a feature vector. */
export function predict(model: LogisticModel, x: readonly number[]): number {
  const { weights, lower, upper } = model;
  let z = weights[weights.length - 1];
  for (let i = 0; i < x.length; i++) {
    const v = lower && upper ? Math.min(upper[i], Math.max(lower[i], x[i])) : x[i];
    z += weights[i] * v;
  }
  return sigmoid(z);
}

/** Solves A x = b for a small symmetric positive definite A (Gaussian elimination, pivoting). */
export function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) pivot = r;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    const p = m[col][col] || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r][col] / p;
      for (let c = col; c <= n; c++) m[r][c] -= f * m[col][c];
    }
  }
  return m.map((row, i) => row[n] / (row[i] || 1e-12));
}

/**
 * Fits P(y=1 | x) by Newton-Raphson (IRLS) on the L2-penalised log-likelihood (the intercept
 * is not penalised), each row counting `weights[i]` times (1 by default). Deterministic: same rows in the same order give the same weights.
 */
export function fitLogistic(
  features: string[],
  rows: readonly (readonly number[])[],
  labels: readonly number[],
  options: { ridge?: number; iterations?: number; weights?: readonly number[] } = {},
): LogisticModel {
  const d = features.length + 1;
  const ridge = options.ridge ?? 1e-2;
  let w = new Array(d).fill(0);
  for (let iter = 0; iter < (options.iterations ?? 50); iter++) {
    const grad = new Array(d).fill(0);
    const hess = Array.from({ length: d }, () => new Array(d).fill(0));
    for (let i = 0; i < rows.length; i++) {
      const x = [...rows[i], 1];
      let z = 0;
      for (let j = 0; j < d; j++) z += w[j] * x[j];
      const p = sigmoid(z);
      const weight = options.weights?.[i] ?? 1;
      const s = Math.max(p * (1 - p), 1e-9) * weight;
      for (let j = 0; j < d; j++) {
        grad[j] += weight * (labels[i] - p) * x[j];
        for (let k = j; k < d; k++) hess[j][k] += s * x[j] * x[k];
      }
    }
    for (let j = 0; j < d; j++) {
      for (let k = 0; k < j; k++) hess[j][k] = hess[k][j];
      if (j < d - 1) {
        grad[j] -= ridge * w[j];
        hess[j][j] += ridge;
      }
    }
    const step = solve(hess, grad);
    w = w.map((v, j) => v + step[j]);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  const model: LogisticModel = { features, weights: w.map((v) => Math.round(v * 1e8) / 1e8) };
  if (rows.length > 0) {
    const lower = [...rows[0]];
    const upper = [...rows[0]];
    for (const row of rows) {
      for (let j = 0; j < row.length; j++) {
        if (row[j] < lower[j]) lower[j] = row[j];
        if (row[j] > upper[j]) upper[j] = row[j];
      }
    }
    Object.assign(model, { lower, upper });
  }
  return model;
}

/** One bin of a reliability table. */
export interface ReliabilityBin {
  lower: number;
  upper: number;
  count: number;
  mean_confidence: number;
  accuracy: number;
}

/** Reliability table (equal-width bins) and expected calibration error. */
export function calibrationReport(
  probabilities: readonly number[],
  labels: readonly number[],
  bins = 10,
): { ece: number; brier: number; bins: ReliabilityBin[] } {
  const table: ReliabilityBin[] = Array.from({ length: bins }, (_, i) => ({
    lower: i / bins,
    upper: (i + 1) / bins,
    count: 0,
    mean_confidence: 0,
    accuracy: 0,
  }));
  let brier = 0;
  probabilities.forEach((p, i) => {
    const bin = table[Math.min(bins - 1, Math.floor(p * bins))];
    bin.count++;
    bin.mean_confidence += p;
    bin.accuracy += labels[i];
    brier += (p - labels[i]) ** 2;
  });
  let ece = 0;
  const n = probabilities.length || 1;
  for (const bin of table) {
    if (bin.count === 0) continue;
    bin.mean_confidence /= bin.count;
    bin.accuracy /= bin.count;
    ece += (bin.count / n) * Math.abs(bin.accuracy - bin.mean_confidence);
    bin.mean_confidence = Math.round(bin.mean_confidence * 1e4) / 1e4;
    bin.accuracy = Math.round(bin.accuracy * 1e4) / 1e4;
  }
  return {
    ece: Math.round(ece * 1e4) / 1e4,
    brier: Math.round(brier / n * 1e4) / 1e4,
    bins: table,
  };
}

/**
 * The ECE that a perfectly calibrated model would show on these confidences: each outcome drawn
 * right with its confidence, averaged over `draws` deterministic draws. ECE over few examples is
 * noisy upwards (about 0.04 for 200 titles at 85% confidence), so a subset's ECE is read against
 * this floor.
 */
export function calibratedEceFloor(probabilities: readonly number[], draws = 200): number {
  let seed = 12345;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  let sum = 0;
  const labels = new Array<number>(probabilities.length);
  for (let d = 0; d < draws; d++) {
    for (let i = 0; i < probabilities.length; i++) labels[i] = random() < probabilities[i] ? 1 : 0;
    sum += calibrationReport(probabilities, labels).ece;
  }
  return Math.round(sum / draws * 1e4) / 1e4;
}
