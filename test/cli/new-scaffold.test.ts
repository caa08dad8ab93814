// `rllm new` writes skeletons that work as generated: each kind is generated into a temporary folder, type-checked
// against the public package, and run end to end through the real CLI (the embedded model offline; a scripted
// server where the grading itself is checked, since the tiny model's replies are not ours to choose).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { lastUserText, startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-new-"));
const home = path.join(directory, "home");
afterAll(() => rmSync(directory, { recursive: true, force: true }));

// The scripted model's reply to each question: a right answer, or a near miss.
const replies: Record<string, string> = {
  "What is the capital of France?": "Let me think.\nParis",
  "What is the capital of Italy?": "Let me think.\nRom",
  "How many days are in a week?": "Seven days.\n7.0",
};
let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer((body) => ({ text: replies[lastUserText(body)] ?? "no idea" }));
  for (const kind of ["cookbook", "benchmark", "verifier"]) {
    const result = await runCli(["new", kind, `my-${kind}`, "--out", path.join(directory, `my-${kind}`)]);
    expect(result.code, result.stderr).toBe(0);
  }
});
afterAll(() => server.close());

const rowsFile = path.join(directory, "rows.jsonl");
writeFileSync(
  rowsFile,
  [
    { id: "france", question: "What is the capital of France?", ground_truth: "Paris" },
    { id: "italy", question: "What is the capital of Italy?", ground_truth: "Rome" },
    { id: "week", question: "How many days are in a week?", ground_truth: "7" },
  ]
    .map((row) => JSON.stringify(row))
    .join("\n") + "\n",
);

async function evalRun(name: string, args: string[]): Promise<{ episodes: { taskId: string; score: { isCorrect: boolean } }[] }> {
  const out = path.join(directory, `run-${name}`);
  const result = await runCli(["eval", ...args, "--out", out], { RLLM_HOME: home });
  expect(result.code, result.stderr).toBe(0);
  const episodes = readFileSync(path.join(out, "episodes.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
  return { episodes };
}
const verdicts = (episodes: { taskId: string; score: { isCorrect: boolean } }[]) => Object.fromEntries(episodes.map((episode) => [episode.taskId, episode.score.isCorrect]));

describe("rllm new", () => {
  it("writes skeletons that type-check against the public package alone", () => {
    const config = path.join(directory, "tsconfig.json");
    // The repository's settings (strict, and the "rllm-ts" entries mapped to the sources, which need Node's types;
    // the temp folder is outside the repository, so say where they are).
    const typeRoots = [path.join(root, "node_modules/@types")];
    writeFileSync(config, JSON.stringify({ extends: path.join(root, "tsconfig.json"), compilerOptions: { typeRoots }, include: ["my-*/**/*.ts"], exclude: [] }));
    const result = spawnSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", config], { encoding: "utf8" });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
    for (const file of ["my-cookbook/index.ts", "my-verifier/index.ts", "my-verifier/verify.ts"]) {
      const imports = [...readFileSync(path.join(directory, file), "utf8").matchAll(/from "([^"]+)"/g)].map((match) => match[1]);
      expect(imports.every((name) => /^rllm-ts(\/[a-z]+)?$/.test(name!) || name!.startsWith("./")), `${file}: ${imports.join(", ")}`).toBe(true);
    }
  });

  it("cookbook: runs under rllm eval with the embedded model, and grades a right answer and a near miss", async () => {
    const offline = await evalRun("cookbook-offline", ["arith", "--cookbook", path.join(directory, "my-cookbook/index.ts"), "--limit", "2"]);
    expect(offline.episodes).toHaveLength(2);
    const scripted = await evalRun("cookbook-scripted", ["qa", "--cookbook", path.join(directory, "my-cookbook/index.ts"), "--data", rowsFile, "--base-url", server.url, "--model", "m"]);
    expect(verdicts(scripted.episodes)).toEqual({ france: true, italy: false, week: false });
  });

  it("verifier: its cookbook runs under rllm eval, and the verifier compares numbers by value", async () => {
    const offline = await evalRun("verifier-offline", ["arith", "--cookbook", path.join(directory, "my-verifier/index.ts"), "--limit", "2"]);
    expect(offline.episodes).toHaveLength(2);
    const scripted = await evalRun("verifier-scripted", ["qa", "--cookbook", path.join(directory, "my-verifier/index.ts"), "--data", rowsFile, "--base-url", server.url, "--model", "m"]);
    expect(verdicts(scripted.episodes)).toEqual({ france: true, italy: false, week: true });
  });

  it("benchmark: its rows register as a dataset that rllm eval runs by name", async () => {
    const registered = await runCli(["dataset", "register", "my-benchmark", "--file", path.join(directory, "my-benchmark/test.jsonl"), "--split", "test"], { RLLM_HOME: home });
    expect(registered.code, registered.stderr).toBe(0);
    const run = await evalRun("benchmark", ["my-benchmark"]);
    expect(run.episodes.map((episode) => episode.taskId)).toEqual(["my-benchmark-1", "my-benchmark-2", "my-benchmark-3"]);
  });

  it("refuses a folder that already holds files, an unknown kind and a name that is no folder name", async () => {
    const again = await runCli(["new", "cookbook", "my-cookbook", "--out", path.join(directory, "my-cookbook")]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already holds files");
    expect((await runCli(["new", "widget", "w"])).stderr).toContain('kind: Invalid option: expected one of "cookbook"|"benchmark"|"verifier"');
    expect((await runCli(["new", "cookbook", "My_Book"])).stderr).toContain("name: lower-case letters");
  });
});
