/**
 * `npm run train:tiny [-- --out DIR --save-every K --from-phase N --evaluate-only]`: trains the embedded tiny model from
 * scratch through the phases of shipped-config.ts (deterministic given their seeds), measures it on the arith test split,
 * and writes the checkpoint with its metrics. `--from-phase 2` continues from the checkpoint already in DIR;
 * `--evaluate-only` re-measures that checkpoint and rewrites its manifest's metrics.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { readCheckpoint, writeCheckpoint } from "./checkpoint.js";
import { evaluateTinyModel } from "./evaluate-tiny-model.js";
import type { ModelWeights } from "./model-weights.js";
import { SHIPPED_MODEL_CONFIG, SHIPPED_TRAINING } from "./shipped-config.js";
import { trainSupervised } from "./supervised-training.js";
import { loadTinyModel } from "./tiny-model.js";
import { packagePath } from "../../core/package-root.js";

const { values } = parseArgs({
  options: {
    out: { type: "string", default: packagePath("src", "models", "tiny", "checkpoint") },
    "save-every": { type: "string", default: "100" },
    "from-phase": { type: "string", default: "1" },
    "evaluate-only": { type: "boolean", default: false },
  },
});
const out = path.resolve(values.out!);
// Measured at temperature 1, the sampling temperature of `rllm eval`.
const evaluation = { problems: 100, temperature: 1, seed: 1 };

if (!values["evaluate-only"]) await train(Number(values["from-phase"]));
const model = await loadTinyModel(out);
const started = performance.now();
const metrics = await evaluateTinyModel(model, evaluation);
console.log(`metrics (${((performance.now() - started) / 1000).toFixed(0)} s):`, metrics);
const { manifest, weights } = await readCheckpoint(out);
await writeCheckpoint(out, manifest.config, weights, { training: manifest.training, metrics: { ...metrics, evaluationSeed: evaluation.seed } });
console.log(`wrote ${out}`);

async function train(firstPhase: number): Promise<void> {
  const saveEvery = Number(values["save-every"]);
  let weights: ModelWeights | undefined;
  let phases: Record<string, unknown>[] = [];
  if (firstPhase > 1) {
    const checkpoint = await readCheckpoint(out);
    weights = checkpoint.weights;
    phases = (checkpoint.manifest.training.phases as Record<string, unknown>[] | undefined)?.slice(0, firstPhase - 1) ?? [];
  }
  for (let phase = firstPhase; phase <= SHIPPED_TRAINING.length; phase++) {
    const options = SHIPPED_TRAINING[phase - 1];
    if (!options) throw new Error(`There is no training phase ${phase}: phases run from 1 to ${SHIPPED_TRAINING.length}`);
    let smoothedLoss: number | undefined;
    const record = (stepsDone: number) => ({
      objective: "supervised: arith solutions and pairwise judge ratings",
      phases: [...phases, { ...options, stepsDone, loss: smoothedLoss }],
    });
    const learner = await trainSupervised(
      SHIPPED_MODEL_CONFIG,
      options,
      async (progress, current) => {
        smoothedLoss = smoothedLoss === undefined ? progress.loss : 0.9 * smoothedLoss + 0.1 * progress.loss;
        if (progress.step % 10 === 0 || progress.step === 1) {
          console.log(
            `phase ${phase} step ${progress.step}/${options.steps} loss ${progress.loss.toFixed(4)} (avg ${smoothedLoss.toFixed(4)}) ` +
              `lr ${progress.learningRate.toExponential(2)} ${progress.seconds.toFixed(0)}s`,
          );
        }
        if (progress.step % saveEvery === 0 && progress.step < options.steps) {
          await writeCheckpoint(out, SHIPPED_MODEL_CONFIG, current.weights(), { training: record(progress.step) });
        }
      },
      weights,
    );
    weights = learner.weights();
    learner.dispose();
    await writeCheckpoint(out, SHIPPED_MODEL_CONFIG, weights, { training: record(options.steps) });
    phases = record(options.steps).phases;
  }
}
