/** `rllm --help` and `rllm <command> --help` print help without loading any command's heavy code (TensorFlow above all). */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLoadRecorder } from "../helpers/record-loads.js";
import { binPath } from "../helpers/run-cli.js";

const folder = mkdtempSync(path.join(tmpdir(), "rllm-help-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The module URLs `rllm ...args` loads, and its stdout. */
function loadedBy(args: string[]): { loaded: string[]; stdout: string } {
  const recorder = createLoadRecorder(folder, args.join("-"));
  const result = spawnSync(process.execPath, [...recorder.args, binPath, ...args], { encoding: "utf8", env: { ...process.env, ...recorder.environment } });
  expect(result.status, result.stderr).toBe(0);
  return { loaded: recorder.loaded(), stdout: result.stdout };
}

describe("rllm help", () => {
  it("wraps each command's description evenly at 80 columns: no line too long, no prose line that could have held the next word", () => {
    for (const command of ["compare", "export", "eval", "train", "sft", "rerank", "serve", "gateway", "grade", "dataset"]) {
      const result = spawnSync(process.execPath, [binPath, command, "--help"], { encoding: "utf8", env: { ...process.env, COLUMNS: "80" } });
      const description = result.stdout.split("\n\n")[1]!.split("\n");
      for (const [index, line] of description.entries()) {
        expect([...line].length, `${command}: ${line}`).toBeLessThanOrEqual(80);
        const next = description[index + 1];
        // A prose line followed by more prose: the next line's first word did not fit on this one.
        if (next !== undefined && /^\S/.test(line) && /^\S/.test(next)) {
          expect([...line].length + 1 + [...next.split(" ")[0]!].length, `${command}: ragged before "${next}"`).toBeGreaterThan(80);
        }
      }
    }
  });

  it("lists every command without loading any command module", () => {
    const { loaded, stdout } = loadedBy(["--help"]);
    for (const command of ["eval", "grade", "dataset", "rerank", "simulate", "serve", "gateway", "train", "sft", "export", "view", "compare"]) {
      expect(stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    }
    expect(loaded.filter((url) => url.includes("/src/cli/commands/") && !/\/index\.[jt]s$/.test(url))).toEqual([]);
    expect(loaded.filter((url) => url.includes("@tensorflow"))).toEqual([]);
    // zod is needed only to build a command's options from its flag schema; the list is plain summaries.
    expect(loaded.filter((url) => url.includes("/node_modules/zod/"))).toEqual([]);
  });

  for (const command of ["eval", "serve", "train", "sft"]) {
    it(`prints \`rllm ${command} --help\` without loading TensorFlow or the command's action module`, () => {
      const { loaded, stdout } = loadedBy([command, "--help"]);
      expect(stdout).toContain(`Usage: rllm ${command}`);
      expect(loaded.filter((url) => url.includes("@tensorflow"))).toEqual([]);
      // Help needs only the definition (<command>-command.ts); the action module and the OpenAI SDK load to run.
      expect(loaded.filter((url) => url.endsWith(`/src/cli/commands/${command}.ts`) || url.includes("/node_modules/openai/"))).toEqual([]);
    });
  }

  it("says how to run the command outside a project that installs rllm-ts", () => {
    const { stdout } = loadedBy(["--help"]);
    expect(stdout).toContain("npx -p rllm-ts rllm <command>");
    expect(stdout).toContain("npm i -g rllm-ts");
  });
});
