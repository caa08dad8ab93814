/**
 * A GGUF model as the local Tinker server's base model (`rllm serve --tinker --base-model <pulled name>`): a torch
 * worker loads the GGUF's weights dequantized and trains a LoRA adapter per Tinker model; llama.cpp samples on the
 * quantized weights, with the adapter a learner exported. The two engines compute logprobs differently (4-bit weights
 * and 8-bit activations against float32), and that gap is measured in docs/results (the logprob contract).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { LlamaCppModel } from "../models/llama-cpp/llama-cpp-model.js";
import { GgufSamplingSessions } from "./gguf-sampling-sessions.js";
import { GgufTinkerLearner } from "./gguf-tinker-learner.js";
import type { TinkerBaseModel } from "./tinker-base-model.js";
import { TorchWorkerProcess } from "./torch-worker-process.js";

export interface GgufBaseModelOptions {
  /** The base_model name clients ask for. */
  name: string;
  /** The GGUF file. */
  file: string;
  /** The Hugging Face id the weights came from: get_info's tokenizer_id. */
  tokenizerId: string;
  /** Where the worker writes tokenizer.json and tokenizer_config.json (with the chat template) when they are missing. */
  tokenizerDirectory: string;
  /** A Python with torch, transformers, peft and gguf. */
  python: string;
  /** CPU threads for the worker and for llama.cpp. */
  threads: number;
}

const DescriptionSchema = z.object({ parameters: z.number(), vocabulary_size: z.number().int(), context_length: z.number().int(), tied_embeddings: z.boolean(), device: z.string() });

/** Starts the worker, loads the GGUF in both engines, and answers the base model once both are ready. */
export async function loadGgufBaseModel(options: GgufBaseModelOptions): Promise<TinkerBaseModel> {
  const worker = new TorchWorkerProcess(options.python);
  const adapterDirectory = mkdtempSync(path.join(os.tmpdir(), "rllm-tinker-adapters-"));
  try {
    // Both engines load at once; when one fails, the other is awaited and released, not left loaded.
    const [loadedDescription, loadedModel] = await Promise.allSettled([
      worker
        .request("load", {
          directory: path.dirname(options.file),
          file: path.basename(options.file),
          threads: options.threads,
          ...(existsSync(path.join(options.tokenizerDirectory, "tokenizer.json")) ? {} : { tokenizer_directory: options.tokenizerDirectory }),
        })
        .then((answer) => DescriptionSchema.parse(answer)),
      LlamaCppModel.load({ file: options.file, name: options.name, threads: options.threads }),
    ]);
    if (loadedDescription.status === "rejected" || loadedModel.status === "rejected") {
      if (loadedModel.status === "fulfilled") await loadedModel.value.dispose();
      throw loadedDescription.status === "rejected" ? loadedDescription.reason : (loadedModel as PromiseRejectedResult).reason;
    }
    const description = loadedDescription.value;
    const model = loadedModel.value;
    const sampling = new GgufSamplingSessions(model);
    let learners = 0;
    return {
      name: options.name,
      contextLength: model.contextSize,
      vocabularySize: description.vocabulary_size,
      info: {
        arch: `${model.model.fileInfo.metadata.general.architecture} (GGUF: LoRA trained in torch on the dequantized weights, sampled by llama.cpp)`,
        tokenizerId: options.tokenizerId,
        isLora: true,
        note:
          `local Tinker server: LoRA (alpha 32) on attention and MLP, trained by torch on ${description.device}; ` +
          `${description.tied_embeddings ? "the unembedding is tied to the embeddings and is not trained; " : ""}sampling is llama.cpp on the quantized GGUF`,
      },
      baseSamplerWeights: {},
      sampling,
      createLearner: (learnerOptions) => GgufTinkerLearner.create(worker, `learner-${learners++}`, learnerOptions, model.contextSize, adapterDirectory),
      async close() {
        await sampling.close();
        await model.dispose();
        await worker.close();
        rmSync(adapterDirectory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await worker.close();
    rmSync(adapterDirectory, { recursive: true, force: true });
    throw error;
  }
}
