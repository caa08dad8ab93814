/**
 * The Tinker training backend: LoRA training on the hosted service (or the local Tinker server) through its HTTP API —
 * session and heartbeat, create_model, protobuf forward_backward + optim_step, a sampler per published version, and
 * train-state checkpoints recorded as tinker:// paths — with an OpenAI chat endpoint over the sampler for agent flows.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import {
  assertBatchSupported,
  LossAggregationSchema,
  type BackendCapabilities,
  type OpenRequest,
  type PolicyRef,
  type SampleRequest,
  type SampleResult,
  type StepStatus,
  type TrainBatch,
  type TrainingBackend,
} from "../../backend.js";
import { UnsupportedRequestError } from "../../errors/unsupported-request-error.js";
import { HttpError } from "../../../http/http-error.js";
import { parsePinnedModelName } from "../pinned-model-name.js";
import type { ChatRenderer } from "../../../llm/tinker/chat-renderer.js";
import { fetchClientConfig, fetchSupportedModels, type ClientConfig } from "../../../llm/tinker/client-config.js";
import { forwardBackwardStep, type TrainingTarget } from "./forward-backward-step.js";
import { forwardLoss } from "./forward-loss.js";
import { awaitFuture, submitJson, type PollCounts, type PollOptions } from "../../../llm/tinker/future-poller.js";
import { startChatServer, type ChatServer } from "../../../llm/tinker/tinker-chat-server.js";
import { TinkerFutureError } from "../../../llm/tinker/tinker-errors.js";
import type { TinkerHttpClient } from "../../../llm/tinker/tinker-http-client.js";
import { createTinkerSampler, type TinkerSampler } from "../../../llm/tinker/tinker-sampler.js";
import { openSession, type TinkerSession } from "../../../llm/tinker/tinker-session.js";

/** Everything the backend needs besides the request: the HTTP client, a renderer per tokenizer id, notices. */
export interface TinkerBackendOptions {
  client: TinkerHttpClient;
  /** The renderer for get_info's tokenizer id (the CLI loads real tokenizers; tests pass the tiny one). */
  loadRenderer(tokenizerId: string): Promise<ChatRenderer>;
  loraRank?: number;
  notify?: (message: string) => void;
  poll?: PollOptions;
  heartbeatMs?: number;
  /**
   * Speak Tinker 0.23's wire, which the Fireworks gateway keeps (its SDK's request types): forward_backward in JSON,
   * create_model without optimizer_config, save_weights_for_sampler with the SDK's checkpoint_type instead of kind
   * ("base": a LoRA adapter is saved whole, resolve_next_checkpoint_type in fireworks-ai's _snapshot_chain.py).
   */
  tinker023Wire?: boolean;
  /**
   * Opens the sampler of one policy version on `source` (the base model's name, or a saved sampler path). Absent: a
   * Tinker sampling session; Fireworks hot-loads the path onto its deployment instead.
   */
  openSampler?: (request: { sessionId: string; source: string; version: number }) => Promise<TinkerSampler>;
}

/** The file a Tinker checkpoint directory holds: the tinker:// paths to restore from. */
export const TINKER_CHECKPOINT_FILE = "tinker-checkpoint.json";

const CheckpointRecordSchema = z
  .object({ baseModel: z.string(), modelId: z.string(), statePath: z.string().startsWith("tinker://"), samplerPath: z.string(), policyVersion: z.number().int().nonnegative() })
  .strict();

const ModelIdReplySchema = z.object({ model_id: z.string() });
const PathReplySchema = z.object({ path: z.string() });
const InfoReplySchema = z.object({ model_data: z.object({ tokenizer_id: z.string().nullish(), model_name: z.string().nullish() }) });

/** The losses Tinker computes; aggregations are client-scaled (scaled-advantages.ts). */
export const TINKER_CAPABILITIES: BackendCapabilities = {
  name: "tinker",
  losses: ["importance_sampling", "ppo", "cispo", "dro", "cross_entropy"],
  lossAggregations: LossAggregationSchema.options,
  merges: ["prefix", "per_call"],
  sampling: "native",
  fullFineTune: false,
  lora: true,
  // Per base model, from get_server_capabilities once open.
  maxContext: 0,
  checkpoints: true,
  referenceKl: false,
  entropySelection: false,
  // A sampling session per version: an episode pinned to a version keeps its session while later versions train.
  asyncRollouts: "pinned",
};

/** Creates the backend; nothing is sent until `open`. */
export function createTinkerBackend(options: TinkerBackendOptions): TrainingBackend {
  const { client } = options;
  const notify = options.notify ?? ((message: string) => process.emitWarning(message));
  const capabilities: BackendCapabilities = { ...TINKER_CAPABILITIES };
  const counts: PollCounts = { polls: 0, tryAgain: 0, timeouts: 0, resubmits: 0 };
  const steps = new Map<string, StepStatus>();
  let state:
    | { config: ClientConfig; session: TinkerSession; modelId: string; baseModel: string; renderer: ChatRenderer; sampler: TinkerSampler; chat: ChatServer }
    | undefined;
  let seqId = 0;
  let samplingSessions = 0;
  let version = 0;
  // The sampler path of the current weights, when saved; a step makes it stale.
  let currentSamplerPath: string | undefined;
  // Earlier versions' samplers that async rollouts still use (retainVersions lets them go).
  const heldSamplers = new Map<number, TinkerSampler>();
  const samplerFor = (model: string | undefined): TinkerSampler => {
    const current = opened().sampler;
    const pinned = model === undefined ? undefined : parsePinnedModelName(model).version;
    if (pinned === undefined || pinned === current.version) return current;
    const held = heldSamplers.get(pinned);
    if (!held) throw new HttpError(404, `Policy version ${pinned} is no longer served (held: ${[current.version, ...heldSamplers.keys()].join(", ")}).`, "invalid_request_error", "model");
    return held;
  };

  const opened = () => {
    if (!state) throw new Error("tinker backend: call open() first");
    return state;
  };
  const nextSeqId = () => ++seqId;
  const trainingTarget = (): TrainingTarget => ({ client, config: opened().config, modelId: opened().modelId, nextSeqId, poll: options.poll, counts, jsonRequests: options.tinker023Wire });
  const policyRef = (): PolicyRef => ({ backend: "tinker", modelId: opened().baseModel, version, openaiBaseUrl: opened().chat.baseUrl, samplerPath: opened().sampler.source });
  const newSampler = (sessionId: string, source: string) =>
    options.openSampler
      ? options.openSampler({ sessionId, source, version })
      : createTinkerSampler(client, { sessionId, samplingSessionSeqId: samplingSessions++, source, version, poll: options.poll, counts });
  const future = async (route: string, body: Record<string, unknown>) =>
    (await awaitFuture(client, () => submitJson(client, route, body), { poll: options.poll, counts })).json;

  async function saveForSampler(name: string): Promise<string> {
    const { modelId } = opened();
    return PathReplySchema.parse(await future("save_weights_for_sampler", { model_id: modelId, path: name, ...(options.tinker023Wire ? { checkpoint_type: "base" } : { kind: "snapshot" }), seq_id: nextSeqId(), type: "save_weights_for_sampler" })).path;
  }

  return {
    name: "tinker",
    capabilities: () => capabilities,

    async open(request: OpenRequest): Promise<PolicyRef> {
      const config = await fetchClientConfig(client);
      const models = await fetchSupportedModels(client);
      const baseModel = request.baseModel || (models.length === 1 ? models[0]!.name : "");
      const supported = models.find((model) => model.name === baseModel);
      if (!supported) {
        throw new UnsupportedRequestError("tinker", "base model", baseModel || "(none given: pass --model)", models.map((model) => model.name));
      }
      capabilities.maxContext = supported.maxContext;
      const session = await openSession(client, { notify, heartbeatMs: options.heartbeatMs });
      try {
        const loraRank = request.loraRank ?? options.loraRank ?? 32;
        const created = ModelIdReplySchema.parse(
          await future("create_model", {
            session_id: session.id,
            model_seq_id: 0,
            base_model: baseModel,
            lora_config: { rank: loraRank, ...(request.seed !== undefined ? { seed: request.seed } : {}), train_unembed: true, train_mlp: true, train_attn: true },
            // The SDK's CreateModelRequest defaults the optimizer to AdamW and sends it (checked by integrations/tinker).
            ...(options.tinker023Wire ? {} : { optimizer_config: { type: "adamw" } }),
            type: "create_model",
          }),
        );
        const info = InfoReplySchema.parse((await client.request("get_info", { json: { model_id: created.model_id, type: "get_info" } })).json);
        const renderer = await options.loadRenderer(info.model_data.tokenizer_id ?? baseModel);
        const sampler = await newSampler(session.id, baseModel);
        // The endpoint picks the sampler per request: the current one (each publish() switches it), or a version still
        // held that the request's model name pins.
        const chat = await startChatServer({ renderer, sampler: (model) => samplerFor(model), modelName: baseModel, maxContext: supported.maxContext });
        state = { config, session, modelId: created.model_id, baseModel, renderer, sampler, chat };
      } catch (error) {
        session.close();
        throw error;
      }
      return policyRef();
    },

    async sample(request: SampleRequest): Promise<SampleResult> {
      const sequences = await opened().sampler.sample({
        promptTokenIds: request.promptTokenIds,
        numSamples: request.n,
        maxTokens: request.maxTokens,
        temperature: request.temperature,
        topP: request.topP,
        stopTokenIds: request.stopTokenIds,
        seed: request.seed,
      });
      return { policyVersion: opened().sampler.version, completions: sequences.map((sequence) => ({ tokenIds: sequence.tokens, logprobs: sequence.logprobs, stopReason: sequence.stopReason })) };
    },

    async submit(batch: TrainBatch): Promise<{ stepId: string }> {
      assertBatchSupported(capabilities, batch);
      const stepId = `step-${steps.size + 1}`;
      steps.set(stepId, { state: "running", metrics: {} });
      currentSamplerPath = undefined;
      forwardBackwardStep(trainingTarget(), batch).then(
        (metrics) => steps.set(stepId, { state: "done", metrics: { ...metrics, polls: counts.polls, resubmits: counts.resubmits } }),
        (error: unknown) => {
          const category = error instanceof TinkerFutureError ? { errorCategory: error.category } : {};
          steps.set(stepId, { state: "failed", metrics: {}, error: (error as Error).message, ...category });
        },
      );
      return { stepId };
    },

    async forward(batch: TrainBatch): Promise<{ loss: number; tokens: number }> {
      assertBatchSupported(capabilities, batch);
      if (batch.loss.kind !== "cross_entropy") throw new UnsupportedRequestError("tinker", "forward-only loss", batch.loss.kind, ["cross_entropy"]);
      return forwardLoss(trainingTarget(), batch.sequences);
    },

    async status(stepId: string): Promise<StepStatus> {
      const status = steps.get(stepId);
      if (!status) throw new Error(`tinker backend: no step "${stepId}"`);
      return status;
    },

    async publish(): Promise<PolicyRef> {
      version += 1;
      const samplerPath = await saveForSampler(`version-${String(version).padStart(6, "0")}`);
      // A new sampling session per version: the SDK's rule after every save_weights_for_sampler. The previous one stays
      // for episodes pinned to it until retainVersions lets it go.
      const previous = opened().sampler;
      heldSamplers.set(previous.version, previous);
      opened().sampler = await newSampler(opened().session.id, samplerPath);
      currentSamplerPath = samplerPath;
      return policyRef();
    },

    async checkpoint(directory: string): Promise<{ path: string; statePath: string; samplerPath: string }> {
      const current = opened();
      const name = path.basename(directory);
      const saved = PathReplySchema.parse(await future("save_weights", { model_id: current.modelId, path: name, seq_id: nextSeqId(), overwrite: false, type: "save_weights" }));
      // Trained since the last publish (SFT never publishes): sampler weights of this checkpoint, under its name, so
      // that `rllm eval --backend tinker --model <samplerPath>` samples exactly these weights.
      currentSamplerPath ??= await saveForSampler(name);
      mkdirSync(directory, { recursive: true });
      const record: z.infer<typeof CheckpointRecordSchema> = {
        baseModel: current.baseModel,
        modelId: current.modelId,
        statePath: saved.path,
        samplerPath: currentSamplerPath,
        policyVersion: version,
      };
      writeFileSync(path.join(directory, TINKER_CHECKPOINT_FILE), JSON.stringify(record, null, 2) + "\n");
      return { path: directory, statePath: saved.path, samplerPath: currentSamplerPath };
    },

    async restore(directory: string): Promise<PolicyRef> {
      const file = path.join(directory, TINKER_CHECKPOINT_FILE);
      const parsed = CheckpointRecordSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
      if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((issue) => `field "${issue.path.join(".")}": ${issue.message}`).join("; ")}`);
      const current = opened();
      await future("load_weights", { model_id: current.modelId, seq_id: nextSeqId(), path: parsed.data.statePath, optimizer: true, type: "load_weights" });
      version = parsed.data.policyVersion;
      heldSamplers.clear();
      currentSamplerPath = await saveForSampler(`restored-${String(version).padStart(6, "0")}`);
      current.sampler = await newSampler(current.session.id, currentSamplerPath);
      return policyRef();
    },

    async retainVersions(versions: readonly number[]): Promise<void> {
      const kept = new Set(versions);
      for (const held of heldSamplers.keys()) if (!kept.has(held)) heldSamplers.delete(held);
    },

    async close(): Promise<void> {
      if (!state) return;
      const current = state;
      state = undefined;
      current.session.close();
      await current.chat.close();
      // A lost service has nothing to unload, and the run's error already said so.
      if (client.isLost) return;
      await awaitFuture(client, () => submitJson(client, "unload_model", { model_id: current.modelId, type: "unload_model" }), { poll: options.poll }).catch(
        (error: unknown) => notify(`Tinker: unload_model failed: ${(error as Error).message}`),
      );
    },
  };
}
