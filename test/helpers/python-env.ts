/** The python of a pinned environment from integrations/python/<name>.txt, built by scripts/python-env.sh. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Finds (building it on first use, which needs PyPI) the environment `name` and returns its python's path. A missing
 * environment is an error naming the command that builds it: a test that needs the real package never skips.
 */
export function pythonEnv(name: string): string {
  const script = path.join(root, "scripts/python-env.sh");
  const run = spawnSync("bash", [script, name], { encoding: "utf8", timeout: 1_800_000 });
  const python = run.stdout.trim().split("\n").at(-1) ?? "";
  if (run.status !== 0 || !existsSync(python)) {
    throw new Error(`python environment "${name}" is not available (run: scripts/python-env.sh ${name}):\n${run.stderr}`);
  }
  return python;
}
