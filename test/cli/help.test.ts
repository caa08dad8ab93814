/** `rllm --help` and `rllm <command> --help` print help without loading any command's heavy code (TensorFlow above all). */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { binPath } from "../helpers/run-cli.js";

const folder = mkdtempSync(path.join(tmpdir(), "rllm-help-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// A resolve hook that logs every module URL the process loads.
const hook = path.join(folder, "record-loads.mjs");
writeFileSync(
  hook,
  `import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(\`
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.RLLM_LOAD_LOG, result.url + "\\\\n");
  return result;
}\`));
`,
);

/** The module URLs `rllm ...args` loads, and its stdout. */
function loadedBy(args: string[]): { loaded: string[]; stdout: string } {
  const log = path.join(folder, `${args.join("-")}.txt`);
  writeFileSync(log, "");
  const result = spawnSync(process.execPath, ["--import", hook, binPath, ...args], { encoding: "utf8", env: { ...process.env, RLLM_LOAD_LOG: log } });
  expect(result.status, result.stderr).toBe(0);
  return { loaded: readFileSync(log, "utf8").split("\n").filter(Boolean), stdout: result.stdout };
}

describe("rllm help", () => {
  it("lists every command without loading any command module", () => {
    const { loaded, stdout } = loadedBy(["--help"]);
    for (const command of ["eval", "grade", "dataset", "rerank", "simulate", "serve", "gateway", "train", "export"]) {
      expect(stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    }
    expect(loaded.filter((url) => url.includes("/src/cli/commands/") && !url.endsWith("/index.ts"))).toEqual([]);
    expect(loaded.filter((url) => url.includes("@tensorflow"))).toEqual([]);
  });

  for (const command of ["eval", "serve", "train"]) {
    it(`prints \`rllm ${command} --help\` without loading TensorFlow`, () => {
      const { loaded, stdout } = loadedBy([command, "--help"]);
      expect(stdout).toContain(`Usage: rllm ${command}`);
      expect(loaded.filter((url) => url.includes("@tensorflow"))).toEqual([]);
    });
  }
});
