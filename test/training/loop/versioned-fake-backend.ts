/**
 * A training backend for loop tests that serves several policy versions at once, as async rollouts need: its
 * OpenAI-style sampler (127.0.0.1) answers `fake` with the newest version and `fake@v<n>` with version n, stamps each
 * reply with `weight_version`, and records which version answered each request; updates are recorded, not computed.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { TrainBatch, TrainingBackend } from "../../../src/training/backend.js";
import { parsePinnedModelName } from "../../../src/training/backends/pinned-model-name.js";

export interface VersionedFakeBackend {
  backend: TrainingBackend;
  batches: TrainBatch[];
  /** Each sampler request: the model name asked for and the version that answered. */
  requests: { model: string; version: number }[];
  /** Resolves once the backend has published `version`. */
  reached(version: number): Promise<void>;
  /** The newest version now. */
  version(): number;
  close(): Promise<void>;
}

/**
 * Starts the sampler; each reply takes `replyDelayMs`, each update `updateDelayMs`. The first `holdUpdates` updates do not finish until the
 * sampler has had a request made after they began (at most 20 s): that proves rollouts go on during an update, and a
 * loop that waits for its updates instead fails.
 */
export async function startVersionedFakeBackend(
  options: { holdUpdates?: number; replyDelayMs?: number; updateDelayMs?: number; mode?: "pinned" | "newest" } = {},
): Promise<VersionedFakeBackend> {
  let version = 0;
  const batches: TrainBatch[] = [];
  const requests: VersionedFakeBackend["requests"] = [];
  const waiters: { version: number; resolve: () => void }[] = [];
  let calls = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { model: string; seed?: number; messages: { content: string }[] };
      const pinned = parsePinnedModelName(body.model).version;
      const served = options.mode === "newest" || pinned === undefined ? version : pinned;
      requests.push({ model: body.model, version: served });
      // The reply depends on the seed and the version, as a real policy's would: even numbers are right answers.
      const draw = ((body.seed ?? calls++) * 31 + served * 7) % 100;
      const reply = () => response.end(
        JSON.stringify({
          id: "chatcmpl-fake",
          object: "chat.completion",
          model: body.model,
          weight_version: served,
          prompt_token_ids: [...body.messages.map((message) => message.content).join("|")].slice(0, 30).map((character) => character.charCodeAt(0)),
          choices: [{ index: 0, message: { role: "assistant", content: `reply ${draw}` }, finish_reason: "stop", token_ids: [500 + draw, 600], logprobs: { content: [{ logprob: -0.5 }, { logprob: -0.25 }] } }],
          usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
        }),
      );
      response.writeHead(200, { "content-type": "application/json" });
      if (options.replyDelayMs) setTimeout(reply, options.replyDelayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const ref = () => ({ backend: "versioned", modelId: "fake", version, openaiBaseUrl: baseUrl });
  const backend: TrainingBackend = {
    name: "versioned",
    capabilities: () => ({
      name: "versioned",
      losses: ["ppo"],
      lossAggregations: ["token-mean"],
      merges: ["prefix"],
      sampling: "openai",
      fullFineTune: true,
      lora: false,
      maxContext: 1000,
      checkpoints: true,
      referenceKl: false,
      entropySelection: false,
      truncatedImportanceSampling: true,
      asyncRollouts: options.mode ?? "pinned",
    }),
    open: async () => ref(),
    sample: async () => ({ completions: [], policyVersion: version }),
    submit: async (batch) => {
      batches.push(batch);
      if (options.updateDelayMs) await new Promise((resolve) => setTimeout(resolve, options.updateDelayMs));
      if (batches.length <= (options.holdUpdates ?? 0)) {
        const before = requests.length;
        const deadline = Date.now() + 20_000;
        while (requests.length === before) {
          if (Date.now() > deadline) throw new Error("no rollout request arrived while the update ran");
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
      return { stepId: `s${batches.length}` };
    },
    status: async () => ({ state: "done", metrics: { loss: 0.5, logprobMismatchMean: 0 } }),
    publish: async () => {
      version += 1;
      for (const waiter of waiters.filter((entry) => entry.version <= version)) waiter.resolve();
      return ref();
    },
    checkpoint: async (directory) => {
      mkdirSync(directory, { recursive: true });
      writeFileSync(path.join(directory, "version"), String(version));
      return { path: directory };
    },
    restore: async (directory) => {
      version = Number(readFileSync(path.join(directory, "version"), "utf8"));
      return ref();
    },
    retainVersions: async () => {},
    close: async () => {},
  };
  return {
    backend,
    batches,
    requests,
    version: () => version,
    reached: (target) => (version >= target ? Promise.resolve() : new Promise((resolve) => waiters.push({ version: target, resolve }))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
