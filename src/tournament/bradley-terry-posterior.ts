/**
 * A Bayesian Bradley–Terry model with a slot-A bias term, fitted by Newton's method to its MAP and approximated by a
 * Gaussian there (Laplace), so that a tournament can sample strengths (Thompson sampling) and ask how sure it is.
 */
import type { Rng } from "../core/random.js";
import { normal } from "../core/random.js";

/** One judge call between two arms: the arm in slot A, the arm in slot B, the outcome for A (1, 0.5, 0) and its weight. */
export interface ArmComparison {
  armA: number;
  armB: number;
  outcome: number;
  weight: number;
}

export interface PosteriorPrior {
  /** Prior mean of each arm's log-strength θ (answer support enters here). */
  means: readonly number[];
  /** Prior standard deviation of every θ. */
  spread: number;
  /** Prior standard deviation of the slot-A bias β; 0 leaves β out (fixed at 0). */
  biasSpread: number;
}

/** The Laplace posterior: MAP log-strengths, the MAP slot-A bias, and the Cholesky factor of the precision. */
export interface BradleyTerryPosterior {
  means: number[];
  bias: number;
  /** Lower-triangular L with L·Lᵀ = precision, over [θ_0 … θ_{K−1}, β] (β only when biasSpread > 0). */
  precisionFactor: number[][];
}

const newtonIterations = 25;

function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

/**
 * MAP of P(A beats B) = σ(θ_A − θ_B + β) under independent Gaussian priors, each call's log-likelihood multiplied by
 * its weight (V1's margin weight: a 10-vs-1 verdict counts fully, a 6-vs-5 one a tenth). A tie is half a win each.
 */
export function fitBradleyTerryPosterior(
  comparisons: readonly ArmComparison[],
  prior: PosteriorPrior,
  start?: BradleyTerryPosterior,
): BradleyTerryPosterior {
  const arms = prior.means.length;
  const hasBias = prior.biasSpread > 0;
  const size = arms + (hasBias ? 1 : 0);
  // Newton from the previous fit (one round's calls later) converges in a few steps; from the prior otherwise.
  const parameters = start ? [...start.means, ...(hasBias ? [start.bias] : [])] : [...prior.means, ...(hasBias ? [0] : [])];
  let factor: number[][] = [];
  for (let iteration = 0; iteration < newtonIterations; iteration += 1) {
    const gradient = new Array<number>(size).fill(0);
    const precision = Array.from({ length: size }, () => new Array<number>(size).fill(0));
    for (let arm = 0; arm < arms; arm += 1) {
      gradient[arm] = -(parameters[arm]! - prior.means[arm]!) / prior.spread ** 2;
      precision[arm]![arm] = 1 / prior.spread ** 2;
    }
    if (hasBias) {
      gradient[arms] = -parameters[arms]! / prior.biasSpread ** 2;
      precision[arms]![arms] = 1 / prior.biasSpread ** 2;
    }
    for (const comparison of comparisons) {
      const difference = parameters[comparison.armA]! - parameters[comparison.armB]! + (hasBias ? parameters[arms]! : 0);
      const chance = sigmoid(difference);
      const slope = comparison.weight * (comparison.outcome - chance);
      const curvature = comparison.weight * chance * (1 - chance);
      // d(difference)/d(parameters) is +1 at A, −1 at B, +1 at β: add curvature·e·eᵀ to the precision.
      const entries: Array<[number, number]> = [[comparison.armA, 1], [comparison.armB, -1]];
      if (hasBias) entries.push([arms, 1]);
      for (const [row, sign] of entries) {
        gradient[row]! += sign * slope;
        for (const [column, otherSign] of entries) precision[row]![column]! += sign * otherSign * curvature;
      }
    }
    factor = cholesky(precision);
    const step = solveWithFactor(factor, gradient);
    let largest = 0;
    for (let index = 0; index < size; index += 1) {
      parameters[index]! += step[index]!;
      largest = Math.max(largest, Math.abs(step[index]!));
    }
    if (largest < 1e-6) break;
  }
  return { means: parameters.slice(0, arms), bias: hasBias ? parameters[arms]! : 0, precisionFactor: factor };
}

/** One draw of the arms' log-strengths from the Laplace posterior: means + L⁻ᵀ·z, z standard normal. */
export function samplePosterior(posterior: BradleyTerryPosterior, rng: Rng): number[] {
  const size = posterior.precisionFactor.length;
  const noise = Array.from({ length: size }, () => normal(rng));
  const offset = backSubstituteTransposed(posterior.precisionFactor, noise);
  return posterior.means.map((mean, arm) => mean + offset[arm]!);
}

/**
 * P(θ_other > θ_leader) for every arm under the Laplace posterior (0 for the leader itself): Φ of the mean gap over
 * the gap's standard deviation, from the covariance (the precision's inverse, K solves with its factor).
 */
export function chanceToBeat(posterior: BradleyTerryPosterior, leader: number): number[] {
  const size = posterior.precisionFactor.length;
  const unit = (index: number) => Array.from({ length: size }, (_, position) => (position === index ? 1 : 0));
  const leaderColumn = solveWithFactor(posterior.precisionFactor, unit(leader));
  return posterior.means.map((mean, arm) => {
    if (arm === leader) return 0;
    const column = solveWithFactor(posterior.precisionFactor, unit(arm));
    const variance = column[arm]! + leaderColumn[leader]! - 2 * column[leader]!;
    return standardNormalCdf((mean - posterior.means[leader]!) / Math.sqrt(Math.max(variance, 1e-12)));
  });
}

/** Φ(x) from erf by Abramowitz–Stegun 7.1.26 (absolute error < 1.5e-7). */
function standardNormalCdf(value: number): number {
  const scaled = Math.abs(value) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * scaled);
  const polynomial = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - polynomial * Math.exp(-scaled * scaled);
  return value >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Cholesky factor L (lower) of a symmetric positive-definite matrix. */
function cholesky(matrix: readonly number[][]): number[][] {
  const size = matrix.length;
  const lower = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  for (let row = 0; row < size; row += 1) {
    for (let column = 0; column <= row; column += 1) {
      let sum = matrix[row]![column]!;
      for (let inner = 0; inner < column; inner += 1) sum -= lower[row]![inner]! * lower[column]![inner]!;
      lower[row]![column] = row === column ? Math.sqrt(Math.max(sum, 1e-12)) : sum / lower[column]![column]!;
    }
  }
  return lower;
}

/** x with L·Lᵀ·x = b. */
function solveWithFactor(lower: readonly number[][], vector: readonly number[]): number[] {
  const size = lower.length;
  const forward = new Array<number>(size).fill(0);
  for (let row = 0; row < size; row += 1) {
    let sum = vector[row]!;
    for (let inner = 0; inner < row; inner += 1) sum -= lower[row]![inner]! * forward[inner]!;
    forward[row] = sum / lower[row]![row]!;
  }
  return backSubstituteTransposed(lower, forward);
}

/** x with Lᵀ·x = b. */
function backSubstituteTransposed(lower: readonly number[][], vector: readonly number[]): number[] {
  const size = lower.length;
  const result = new Array<number>(size).fill(0);
  for (let row = size - 1; row >= 0; row -= 1) {
    let sum = vector[row]!;
    for (let inner = row + 1; inner < size; inner += 1) sum -= lower[inner]![row]! * result[inner]!;
    result[row] = sum / lower[row]![row]!;
  }
  return result;
}
