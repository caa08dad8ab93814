/**
 * The local Tinker server's sampling sessions on a GGUF: each session samples with llama.cpp on the base weights or
 * with a LoRA adapter the learner exported. Each set of weights has its own context (KV cache and sequences); the
 * least recently used idle ones are closed past a few, and reopened when a session needs them again.
 */
import type { SampledSequence } from "../llm/tinker/tinker-proto.js";
import type { LlamaCppContext } from "../models/llama-cpp/llama-cpp-context.js";
import type { LlamaCppModel } from "../models/llama-cpp/llama-cpp-model.js";
import type { GgufSamplerWeights } from "./gguf-tinker-learner.js";
import { stopIndex } from "./stop-index.js";
import type { SampleRequest, SamplerSource, SamplingSessions } from "./tinker-base-model.js";

// Open contexts kept at once: the base and the current policy version, with one to spare while a new one opens.
const OPEN_CONTEXTS = 3;

interface OpenContext {
  context: Promise<LlamaCppContext>;
  users: number;
}

export class GgufSamplingSessions implements SamplingSessions {
  private readonly weights = new Map<string, GgufSamplerWeights>();
  private readonly sources = new Map<string, SamplerSource>();
  private readonly contexts = new Map<string, OpenContext>();
  private count = 0;

  constructor(private readonly model: LlamaCppModel) {}

  create(sessionId: string, weights: unknown, source: SamplerSource): string {
    const id = `${sessionId}:sample:${this.count++}`;
    this.weights.set(id, weights as GgufSamplerWeights);
    this.sources.set(id, source);
    return id;
  }

  has(id: string): boolean {
    return this.weights.has(id);
  }

  source(id: string): SamplerSource | undefined {
    return this.sources.get(id);
  }

  async sample(id: string, request: SampleRequest): Promise<SampledSequence[]> {
    const choices = await this.withContext(id, (context) =>
      context.generate(request.promptTokenIds, {
        n: request.numSamples,
        maxTokens: Math.min(request.maxTokens, this.model.contextSize - request.promptTokenIds.length),
        temperature: request.temperature,
        topP: request.topP,
        stop: request.stopStrings,
        ...(request.seed !== undefined ? { seed: request.seed } : {}),
        logprobs: true,
        topLogprobs: 0,
      }),
    );
    return choices.map((choice) => {
      const cut = stopIndex(choice.tokenIds, request.stopTokenIds, request.stopStrings, (token) => this.model.tokenText(token));
      const end = cut === -1 ? choice.tokenIds.length : cut + 1;
      return { tokens: choice.tokenIds.slice(0, end), logprobs: choice.logprobs.slice(0, end), stopReason: cut === -1 ? choice.finishReason : "stop" };
    });
  }

  async promptLogprobs(id: string, promptTokenIds: readonly number[], lastN?: number): Promise<(number | null)[]> {
    const logprobs = await this.withContext(id, (context) => context.sequenceLogprobs(promptTokenIds));
    const firstScored = lastN === undefined ? 1 : promptTokenIds.length - lastN;
    return logprobs.map((logprob, index) => (index >= Math.max(1, firstScored) ? logprob : null));
  }

  /** Closes every open context. */
  async close(): Promise<void> {
    const open = [...this.contexts.values()];
    this.contexts.clear();
    for (const entry of open) await disposeContext(entry);
  }

  private async withContext<Result>(id: string, work: (context: LlamaCppContext) => Promise<Result>): Promise<Result> {
    const loraFile = this.weights.get(id)?.loraFile;
    const key = loraFile ?? "base";
    let entry = this.contexts.get(key);
    if (entry) this.contexts.delete(key);
    if (!entry) {
      const opening: OpenContext = { context: this.model.createContext(loraFile ? { loraFile } : {}), users: 0 };
      // A context that fails to open (an adapter file gone or unreadable) fails this request only: it is not kept, so the
      // next request for these weights tries again, and evicting or closing never meets its error.
      opening.context.catch(() => {
        if (this.contexts.get(key) === opening) this.contexts.delete(key);
      });
      entry = opening;
    }
    // Re-inserted last: the map's order is least recently used first.
    this.contexts.set(key, entry);
    entry.users += 1;
    try {
      return await work(await entry.context);
    } finally {
      entry.users -= 1;
      await this.closeIdle();
    }
  }

  private async closeIdle(): Promise<void> {
    for (const [key, entry] of this.contexts) {
      if (this.contexts.size <= OPEN_CONTEXTS) return;
      if (entry.users > 0 || key === "base") continue;
      this.contexts.delete(key);
      await disposeContext(entry);
    }
  }
}

// A context that never opened has nothing to dispose; its request already failed with the reason.
async function disposeContext(entry: OpenContext): Promise<void> {
  const context = await entry.context.catch(() => undefined);
  await context?.dispose();
}
