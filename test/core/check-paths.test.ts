import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { assertCheckpointDirectory, assertInputFile, assertWritableOutput } from "../../src/core/check-paths.js";
import { InputError } from "../../src/core/errors/input-error.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-paths-"));
const file = path.join(directory, "rows.jsonl");
writeFileSync(file, "{}\n");

describe("the CLI's path checks", () => {
  it("accepts an existing file as input and refuses a directory or a missing file, naming the flag", () => {
    expect(() => assertInputFile("--input", file)).not.toThrow();
    expect(() => assertInputFile("--input", directory)).toThrow(new InputError(`--input ${directory}: is a directory; give a file`));
    expect(() => assertInputFile("--data", path.join(directory, "none"))).toThrow(/^--data .*none: no such file$/);
  });

  it("accepts an output in an existing folder and refuses one whose folder is missing or that is a folder", () => {
    expect(() => assertWritableOutput("--output", path.join(directory, "new.jsonl"))).not.toThrow();
    expect(() => assertWritableOutput("--output", file)).not.toThrow();
    expect(() => assertWritableOutput("--output", "/nonexistent/d/o.jsonl")).toThrow("--output /nonexistent/d/o.jsonl: folder /nonexistent/d does not exist");
    expect(() => assertWritableOutput("--out", directory)).toThrow(`--out ${directory}: is a directory`);
  });

  it("accepts the shipped checkpoint and refuses a folder without one", () => {
    expect(() => assertCheckpointDirectory("--checkpoint", "src/models/tiny/checkpoint")).not.toThrow();
    expect(() => assertCheckpointDirectory("--checkpoint", directory)).toThrow(/not a tiny-model checkpoint \(no manifest\.json\)/);
    expect(() => assertCheckpointDirectory("--checkpoint", file)).toThrow(/not a directory/);
  });
});
