// The GGUF base model of the local Tinker server loads in two engines at once (the torch worker and llama.cpp): when the
// worker cannot load (no torch in that Python, here a stand-in that exits at once), the start fails with the worker's
// words and nothing stays loaded: llama.cpp's weights are disposed, the worker is gone.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { LlamaCppModel } from "../../src/models/llama-cpp/llama-cpp-model.js";
import { loadGgufBaseModel } from "../../src/tinker-server/gguf-base-model.js";
import { TEST_MODEL, testModelFile } from "../helpers/test-model.js";

const work = mkdtempSync(path.join(tmpdir(), "rllm-gguf-base-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("loadGgufBaseModel", () => {
  it("disposes the llama.cpp model when the torch worker cannot load", async () => {
    const python = path.join(work, "python-without-torch");
    writeFileSync(python, "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'torch'\" >&2\nexit 1\n");
    chmodSync(python, 0o755);
    const load = vi.spyOn(LlamaCppModel, "load");
    try {
      const file = await testModelFile();
      await expect(loadGgufBaseModel({ name: TEST_MODEL, file, tokenizerId: "test", tokenizerDirectory: path.join(work, "tokenizer"), python, threads: 1 })).rejects.toThrow(
        /No module named 'torch'/,
      );
      const loaded = await load.mock.results[0]!.value;
      expect(loaded.model.disposed).toBe(true);
    } finally {
      load.mockRestore();
    }
  }, 600_000);
});
