/** The embedded tiny model's public surface: loading and sampling, the learner and its losses, checkpoints, the server, the tokenizer. */

// Loading, sampling, publishing new weights.
export { loadTinyModel, TinyModel, SHIPPED_CHECKPOINT_DIRECTORY, type GenerateOptions } from "./tiny-model.js";
export type { SampleOptions } from "./sampler.js";
export type { SampledChoice } from "../server/served-model.js";
// The learner (tfjs on wasm) and the losses a trainer steps on.
export { TrainableModel, supervisedLoss, type TokenLoss, type StepResult } from "./trainable-model.js";
export type { AdamOptions } from "./adam.js";
// Checkpoints and the model's shape.
export { readCheckpoint, writeCheckpoint, CheckpointManifestSchema, type Checkpoint, type CheckpointManifest } from "./checkpoint.js";
export { TinyModelConfigSchema, type TinyModelConfig } from "./model-config.js";
export type { ModelWeights } from "./model-weights.js";
// The OpenAI-compatible server.
export { startTinyServer, TINY_MODEL_NAME, type TinyServer, type TinyServerOptions } from "./server.js";
// Tokenizer and chat template.
export { applyChatTemplate } from "./chat-template.js";
export { decodeTokens, encodeText, END_ID, VOCABULARY } from "./tokenizer.js";
