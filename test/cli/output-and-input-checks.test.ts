// Bad paths and unknown options are refused before any grading, judging or exporting, with exit 2 and the flag named.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { startScriptedServer } from "../helpers/scripted-openai-server.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-checks-"));
const write = (name: string, lines: unknown[]) => {
  const file = path.join(directory, name);
  writeFileSync(file, lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n") + "\n");
  return file;
};
const mathRows = write("math.jsonl", [{ id: "a", response: "\\boxed{1}", ground_truth: "1" }]);
const lostOutput = "/nonexistent/d/o.jsonl";
const exitsAtOnce = { timeout: 30_000 };

describe("rllm grade", () => {
  it("checks that --output can be written before grading any row", exitsAtOnce, async () => {
    const result = await runCli(["grade", "--verifier", "math", "--input", mathRows, "--output", lostOutput]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--output ${lostOutput}: folder /nonexistent/d does not exist`);
    expect(result.stderr).not.toContain("graded");
  });

  it("exits 2 naming --input when it is a directory", exitsAtOnce, async () => {
    const result = await runCli(["grade", "--verifier", "math", "--input", directory]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--input ${directory}: is a directory`);
  });

  it("refuses a code-only option with another verifier as an unknown option, with a hint", exitsAtOnce, async () => {
    const result = await runCli(["grade", "--verifier", "math", "--input", mathRows, "--timeout", "5"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--timeout' for --verifier math");
    expect(result.stderr).toContain("--set timeoutMs=");
    expect(result.stderr).not.toContain("Unrecognized key");
  });

  it("reads a file saved with a UTF-8 byte-order mark", exitsAtOnce, async () => {
    const withMark = write("bom.jsonl", [`\uFEFF${JSON.stringify({ id: "a", response: "\\boxed{1}", ground_truth: "1" })}`]);
    const graded = await runCli(["grade", "--verifier", "math", "--input", withMark]);
    expect(graded.code, graded.stderr).toBe(0);
    expect(JSON.parse(graded.stdout.trim())).toMatchObject({ id: "a", isCorrect: true });
  });
});

describe("rllm rerank", () => {
  const candidates = (id: string) => ({ id, problem: "What is 1+1?", candidates: ["\\boxed{2}", "\\boxed{3}"] });

  it("checks that --output can be written before any judge call", exitsAtOnce, async () => {
    const input = write("rerank.jsonl", [candidates("a")]);
    const result = await runCli(["rerank", "--input", input, "--output", lostOutput]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--output ${lostOutput}: folder /nonexistent/d does not exist`);
  });

  it("refuses duplicate ids, naming both lines", exitsAtOnce, async () => {
    const input = write("duplicates.jsonl", [candidates("a"), candidates("b"), candidates("a")]);
    const result = await runCli(["rerank", "--input", input]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${input}:3: field "id": duplicate id "a" (first used on line 1)`);
  });

  it("names a missing id as a required field", exitsAtOnce, async () => {
    const input = write("no-id.jsonl", [{ problem: "p", candidates: ["x"] }]);
    const result = await runCli(["rerank", "--input", input]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${input}:1: field "id": required`);
  });
});

describe("rllm export", () => {
  it("checks that --out can be written before exporting", exitsAtOnce, async () => {
    const run = path.join(directory, "run");
    mkdirSync(run);
    writeFileSync(path.join(run, "episodes.jsonl"), "");
    const result = await runCli(["export", run, "--format", "jsonl", "--out", lostOutput]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--out ${lostOutput}: folder /nonexistent/d does not exist`);
  });
});

describe("rllm dataset", () => {
  it("names the URL and the bundled sample when finqa cannot be pulled, and leaves no dataset folder", exitsAtOnce, async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "rllm-home-"));
    // Port 9 on loopback: nothing listens there, like a machine with no route out.
    const result = await runCli(["dataset", "pull", "finqa"], { RLLM_HOME: home, HF_ENDPOINT: "http://127.0.0.1:9" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("could not download http://127.0.0.1:9/datasets/rLLM/finqa/resolve/main/data.tar.gz");
    expect(result.stderr).toContain("bundled sample (benchmarks/finqa/data/finqa_sample.jsonl) works offline");
    expect(existsSync(path.join(home, "datasets", "finqa"))).toBe(false);
  });

  it("advises, when geo3k cannot be pulled, commands that work offline, and they do", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "rllm-home-"));
    const result = await runCli(["dataset", "pull", "geo3k"], { RLLM_HOME: home, HF_ENDPOINT: "http://127.0.0.1:9" });
    expect(result.code).toBe(1);
    // geo3k's prompts do not fit the embedded model: plain `rllm eval geo3k` would exit 2, so the advice names an endpoint.
    const advised = [...result.stderr.matchAll(/`(rllm [^`]+)`/g)].map((match) => match[1]!);
    expect(advised).toEqual(["rllm dataset show geo3k", "rllm eval geo3k --base-url <url> --model <name>"]);
    const endpoint = await startScriptedServer(() => ({ text: "\\boxed{3}" }));
    try {
      for (const command of advised) {
        const args = command.replace("<url>", endpoint.url).replace("<name>", "m").split(" ").slice(1);
        const run = await runCli([...args, ...(args[0] === "eval" ? ["--limit", "2", "--out", path.join(home, "run")] : [])], { RLLM_HOME: home });
        expect(run.code, `${command}: ${run.stderr}`).toBe(0);
      }
    } finally {
      await endpoint.close();
    }
  });

  it("names -n as well as --rows when the row count is bad", exitsAtOnce, async () => {
    const result = await runCli(["dataset", "show", "arith", "-n", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("-n/--rows: Too small");
  });
});
