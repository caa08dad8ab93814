/** A Node `--import` hook that logs every module URL a process resolves, to assert on what a command or an import loads. */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

// The hook itself runs on Node's loader thread, so it writes to a file named by RLLM_LOAD_LOG.
const hookSource = `import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(\`
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.RLLM_LOAD_LOG, result.url + "\\\\n");
  return result;
}\`));
`;

/** Where a process records its loads: pass `args` before the script and `environment` to the child. */
export interface LoadRecorder {
  args: string[];
  environment: NodeJS.ProcessEnv;
  /** The module URLs resolved so far. */
  loaded(): string[];
}

/** Writes the hook and an empty log named `name` into `folder`. */
export function createLoadRecorder(folder: string, name: string): LoadRecorder {
  const hook = path.join(folder, "record-loads.mjs");
  const log = path.join(folder, `${name}.loads.txt`);
  writeFileSync(hook, hookSource);
  writeFileSync(log, "");
  return {
    args: ["--import", hook],
    environment: { RLLM_LOAD_LOG: log },
    loaded: () => readFileSync(log, "utf8").split("\n").filter(Boolean),
  };
}
