// The GGUF sampling sessions of the local Tinker server: a context that fails to open (an adapter file that is gone or
// is not a LoRA GGUF) fails its request, and must not stay behind as a broken entry that later fails the evictions of
// other requests and the server's close.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LlamaCppModel } from "../../src/models/llama-cpp/llama-cpp-model.js";
import { GgufSamplingSessions } from "../../src/tinker-server/gguf-sampling-sessions.js";
import { TEST_MODEL, testModelFile } from "../helpers/test-model.js";

let model: LlamaCppModel;
const work = mkdtempSync(path.join(tmpdir(), "rllm-gguf-sessions-"));

beforeAll(async () => {
  model = await LlamaCppModel.load({ file: await testModelFile(), name: TEST_MODEL, threads: 1 });
}, 600_000);

afterAll(async () => {
  await model?.dispose();
  rmSync(work, { recursive: true, force: true });
});

const source = { baseModel: TEST_MODEL, modelPath: null };

describe("GgufSamplingSessions", () => {
  it("fails a request whose adapter cannot be opened, and still samples and closes", async () => {
    const sessions = new GgufSamplingSessions(model);
    const broken = path.join(work, "not-an-adapter.gguf");
    writeFileSync(broken, "not a GGUF");
    const request = { promptTokenIds: model.applyChatTemplate([{ role: "user", content: "Name a colour." }]), numSamples: 1, maxTokens: 4, temperature: 0, topP: 1, seed: 1, stopTokenIds: [], stopStrings: [] };
    const brokenIds = [broken, path.join(work, "absent-1.gguf"), path.join(work, "absent-2.gguf")].map((loraFile) => sessions.create("session", { loraFile }, source));
    for (const id of brokenIds) await expect(sessions.sample(id, request)).rejects.toThrow();
    // Four sets of weights have been asked for: the base request evicts the broken ones, and must not fail for them.
    const [sampled] = await sessions.sample(sessions.create("session", {}, source), request);
    expect(sampled!.tokens.length).toBeGreaterThan(0);
    await expect(sessions.close()).resolves.toBeUndefined();
  }, 600_000);
});
