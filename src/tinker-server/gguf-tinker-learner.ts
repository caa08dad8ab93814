/**
 * One Tinker model on a GGUF: a LoRA adapter in the torch worker. forward_backward sends the datums as rows (input
 * tokens, targets and the per-token loss inputs); saved states stay in the worker under their tinker:// path; sampler
 * weights are the adapter written as a llama.cpp LoRA GGUF.
 */
import path from "node:path";
import { z } from "zod";
import type { DecodedForwardBackwardRequest, ForwardBackwardResult } from "../llm/tinker/tinker-proto.js";
import { FutureFailure } from "./future-table.js";
import type { AdamParameters, LearnerOptions, TinkerLearner } from "./tinker-base-model.js";
import type { TorchWorkerProcess } from "./torch-worker-process.js";

/** A saved state: the worker keeps the tensors under this path. */
interface SavedState {
  path: string;
}

/** Sampler weights: a LoRA adapter GGUF, or none for the base weights. */
export interface GgufSamplerWeights {
  loraFile?: string;
}

const ForwardBackwardAnswerSchema = z.object({ logprobs: z.array(z.array(z.number())), metrics: z.record(z.string(), z.number()) });
const MetricsSchema = z.record(z.string(), z.number());

export class GgufTinkerLearner implements TinkerLearner {
  private exports = 0;

  private constructor(
    private readonly worker: TorchWorkerProcess,
    private readonly id: string,
    private readonly contextLength: number,
    private readonly adapterDirectory: string,
  ) {}

  /** A new adapter in the worker. */
  static async create(worker: TorchWorkerProcess, id: string, options: LearnerOptions, contextLength: number, adapterDirectory: string): Promise<GgufTinkerLearner> {
    await worker.request("create", { model_id: id, rank: options.rank, seed: options.seed, train_attn: options.trainAttention, train_mlp: options.trainMlp });
    return new GgufTinkerLearner(worker, id, contextLength, adapterDirectory);
  }

  async forwardBackward(request: DecodedForwardBackwardRequest): Promise<ForwardBackwardResult> {
    const rows = request.data.map((datum, index) => {
      const targets = datum.lossFnInputs.target_tokens;
      if (!targets || targets.length !== datum.modelInput.length) {
        throw new FutureFailure(`datum ${index}: target_tokens must have one entry per model_input token (${datum.modelInput.length})`, "user");
      }
      if (datum.modelInput.length > this.contextLength) throw new FutureFailure(`datum ${index}: ${datum.modelInput.length} tokens; the model's context is ${this.contextLength}`, "user");
      const aligned = (name: string) => {
        const values = datum.lossFnInputs[name];
        if (values && values.length !== targets.length) throw new FutureFailure(`datum ${index}: ${name} has ${values.length} values for ${targets.length} targets`, "user");
        return values;
      };
      if (request.lossFn !== "cross_entropy" && (!datum.lossFnInputs.advantages || !datum.lossFnInputs.logprobs)) {
        throw new FutureFailure(`datum ${index}: ${request.lossFn} needs advantages and logprobs`, "user");
      }
      return { tokens: datum.modelInput, targets, weights: aligned("weights") ?? targets.map(() => 1), advantages: aligned("advantages"), logprobs: aligned("logprobs") };
    });
    const answer = ForwardBackwardAnswerSchema.parse(
      await this.worker.request("forward_backward", { model_id: this.id, loss_fn: request.lossFn, config: request.lossFnConfig, rows, forward_only: request.forwardOnly }),
    );
    return { lossFnOutputType: "per_datum", outputs: answer.logprobs.map((logprobs) => ({ logprobs })), metrics: answer.metrics };
  }

  async optimStep(adam: AdamParameters): Promise<Record<string, number>> {
    return MetricsSchema.parse(await this.worker.request("optim_step", { model_id: this.id, adam }));
  }

  async saveState(statePath: string): Promise<SavedState> {
    await this.worker.request("save_state", { model_id: this.id, path: statePath });
    return { path: statePath };
  }

  async loadState(state: unknown, withOptimizer: boolean): Promise<void> {
    await this.worker.request("load_state", { model_id: this.id, path: (state as SavedState).path, optimizer: withOptimizer });
  }

  async samplerWeights(): Promise<GgufSamplerWeights> {
    const loraFile = path.join(this.adapterDirectory, `${this.id}-${++this.exports}.gguf`);
    await this.worker.request("export_adapter", { model_id: this.id, path: loraFile });
    return { loraFile };
  }

  async dispose(): Promise<void> {
    await this.worker.request("unload", { model_id: this.id });
  }
}
