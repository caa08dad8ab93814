// config.json and summary.json carry a formatVersion; run folders written before it (format 1) still load, resume and export.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runFormatVersion } from "../../src/core/run-summary.js";
import { readRunConfig, readRunSummary, readTrainedOn } from "../../src/runs/read-run-files.js";
import { openRunDirectory } from "../../src/runs/run-directory.js";
import { runCli } from "../helpers/run-cli.js";

const formatOne = new URL("../fixtures/runs/format-1", import.meta.url).pathname;
const copyOfFormatOne = () => {
  const directory = path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-format-1-")), "run");
  cpSync(formatOne, directory, { recursive: true });
  return directory;
};

describe("run files of format 1", () => {
  it("read config.json and summary.json without formatVersion as format 1, with no unscored episodes", () => {
    expect(readRunConfig(path.join(formatOne, "config.json"))).toMatchObject({ formatVersion: 1, benchmark: "arith", attempts: 2 });
    const summary = readRunSummary(path.join(formatOne, "summary.json"));
    expect(summary).toMatchObject({ formatVersion: 1, counts: { scored: 6, unscored: 0 }, status: "complete" });
    expect(summary.metrics["maj@k"]).toEqual({ "2": 0.3333333333333333 });
  });

  it("resume with the settings they were made with, and still refuse different ones", () => {
    const directory = copyOfFormatOne();
    const { formatVersion: _version, ...settings } = JSON.parse(readFileSync(path.join(directory, "config.json"), "utf8"));
    expect(openRunDirectory(directory, settings, true).directory).toBe(directory);
    expect(() => openRunDirectory(directory, { ...settings, attempts: 4 }, true)).toThrow(/attempts: 2 → 4/);
  });

  it("export through `rllm export`, its benchmark as verl's data_source", async () => {
    const directory = copyOfFormatOne();
    const file = path.join(directory, "rows.jsonl");
    const result = await runCli(["export", directory, "--format", "jsonl", "--out", file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^\d+ rows/);
    expect(result.stdout).toContain("unscored 0");
  });
});

describe("run files of the current format", () => {
  it("write formatVersion into a new run's config.json", () => {
    const directory = path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-run-")), "run");
    openRunDirectory(directory, { benchmark: "arith", attempts: 1 }, false);
    expect(readRunConfig(path.join(directory, "config.json"))).toEqual({ formatVersion: runFormatVersion, benchmark: "arith", attempts: 1 });
    expect(openRunDirectory(directory, { benchmark: "arith", attempts: 1 }, true).directory).toBe(directory);
  });

  it("name the file and the field of a summary.json that does not fit the schema", () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-summary-")), "summary.json");
    writeFileSync(file, JSON.stringify({ counts: { tasks: "three" } }));
    expect(() => readRunSummary(file)).toThrow(new RegExp(`${file.replace(/[.]/g, "\\.")}: field "counts\\.tasks"`));
  });
});

describe("trainedOn in an sft run's config.json", () => {
  const write = (config: unknown) => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-trained-on-")), "config.json");
    writeFileSync(file, JSON.stringify(config));
    return file;
  };

  it("reads the benchmark and test splits, or undefined when the run trained on none", () => {
    expect(readTrainedOn(write({ command: "sft", trainedOn: { benchmark: "arith", splits: ["test"] } }))).toEqual({ benchmark: "arith", splits: ["test"] });
    expect(readTrainedOn(write({ command: "sft" }))).toBeUndefined();
  });

  it("names the file and field of a malformed entry", () => {
    const file = write({ command: "sft", trainedOn: { benchmark: "arith", splits: "test" } });
    expect(() => readTrainedOn(file)).toThrow(`${file}: field "trainedOn.splits"`);
  });
});
