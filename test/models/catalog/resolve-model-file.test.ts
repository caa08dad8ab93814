// What a command serves: a catalogue name that must be pulled first (one line saying how), or any local .gguf.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { InputError } from "../../../src/core/errors/input-error.js";
import { localModelFile, pulledModelFile } from "../../../src/models/catalog/resolve-model-file.js";

const work = mkdtempSync(path.join(tmpdir(), "rllm-model-file-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("pulledModelFile", () => {
  it("names `rllm models pull smollm2-135m` in one line when the model is not pulled", () => {
    let message = "";
    try {
      pulledModelFile("smollm2-135m", work);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("rllm models pull smollm2-135m");
    expect(message).not.toContain("\n");
  });

  it("refuses a pulled GGUF whose size is not its model.json's, saying to pull again", () => {
    const home = path.join(work, "short-home");
    const directory = path.join(home, "models", "smollm2-135m");
    mkdirSync(directory, { recursive: true });
    const manifest = { name: "smollm2-135m", file: "model.gguf", bytes: 98_362_432, sha256: "b".repeat(64), licence: "Apache-2.0", source: "s", requirement: "r", wheelSha256: "w", huggingFaceId: "h", pulledAt: "t" };
    writeFileSync(path.join(directory, "model.json"), JSON.stringify(manifest));
    writeFileSync(path.join(directory, "model.gguf"), "GGUF cut short");
    expect(() => pulledModelFile("smollm2-135m", home)).toThrow(`${path.join(directory, "model.gguf")}: 14 bytes, but its model.json says 98362432 (cut short?): pull it again with \`rllm models pull smollm2-135m\``);
  });

  it("lists the known models for an unknown name", () => {
    expect(() => pulledModelFile("gpt-5", work)).toThrow('unknown model "gpt-5"; available: smollm2-135m');
  });
});

describe("localModelFile", () => {
  it("serves a local .gguf under its file name", () => {
    const file = path.join(work, "My-Model.Q8_0.gguf");
    writeFileSync(file, "GGUF");
    expect(localModelFile(file)).toEqual({ name: "My-Model.Q8_0", path: file });
  });

  it("refuses a file that is not .gguf, and one that does not exist, naming the option or the flag", () => {
    expect(() => localModelFile(path.join(work, "weights.bin"))).toThrow(`modelFile ${path.join(work, "weights.bin")}: not a .gguf file`);
    const absent = path.join(work, "absent.gguf");
    try {
      localModelFile(absent);
    } catch (error) {
      expect((error as InputError).flagMessage).toBe(`--model-file ${absent}: no such file`);
    }
    expect.assertions(2);
  });
});
