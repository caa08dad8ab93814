/** Adam with decoupled weight decay and global-norm gradient clipping, on tfjs variables, with state that can be saved. */
import * as tf from "@tensorflow/tfjs";
import type { ModelVariables } from "./transformer.js";

export interface AdamOptions {
  learningRate: number;
  beta1?: number;
  beta2?: number;
  epsilon?: number;
  /** Decoupled (AdamW) decay applied to matrices only, not to biases and norms. */
  weightDecay?: number;
  /** Gradients are scaled down so that their global L2 norm is at most this. */
  clipNorm?: number;
}

/** First and second moments per parameter plus the step count. */
export interface AdamState {
  step: number;
  firstMoment: Map<string, tf.Variable>;
  secondMoment: Map<string, tf.Variable>;
}

/** Zero moments for every variable. */
export function createAdamState(variables: ModelVariables): AdamState {
  const zeros = () => new Map([...variables].map(([name, variable]) => [name, tf.variable(tf.zerosLike(variable), false)]));
  return { step: 0, firstMoment: zeros(), secondMoment: zeros() };
}

/** Applies one Adam step in place; returns the gradients' global norm before clipping. */
export function applyAdam(
  variables: ModelVariables,
  gradients: Record<string, tf.Tensor | undefined>,
  state: AdamState,
  options: AdamOptions,
): number {
  const { learningRate, beta1 = 0.9, beta2 = 0.95, epsilon = 1e-8, weightDecay = 0, clipNorm = 1 } = options;
  state.step += 1;
  // A scalar tensor's data has exactly one value.
  const globalNorm = tf.tidy(() =>
    tf.sqrt(tf.addN(Object.values(gradients).flatMap((gradient) => (gradient ? [gradient.square().sum()] : [])))).dataSync()[0]!,
  );
  const clipScale = globalNorm > clipNorm ? clipNorm / globalNorm : 1;
  const correction1 = 1 - beta1 ** state.step;
  const correction2 = 1 - beta2 ** state.step;
  tf.tidy(() => {
    for (const [name, variable] of variables) {
      const rawGradient = gradients[name];
      if (!rawGradient) throw new Error(`No gradient for parameter "${name}"`);
      const gradient = rawGradient.mul(clipScale);
      const first = state.firstMoment.get(name)!;
      const second = state.secondMoment.get(name)!;
      first.assign(first.mul(beta1).add(gradient.mul(1 - beta1)));
      second.assign(second.mul(beta2).add(gradient.square().mul(1 - beta2)));
      const update = first.div(correction1).div(tf.sqrt(second.div(correction2)).add(epsilon));
      const decayed = weightDecay > 0 && variable.rank === 2 ? variable.mul(1 - learningRate * weightDecay) : variable;
      variable.assign(decayed.sub(update.mul(learningRate)));
    }
  });
  return globalNorm;
}
