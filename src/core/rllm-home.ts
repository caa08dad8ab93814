/** The cache root for pulled datasets and other downloads: $RLLM_HOME, else ~/.cache/rllm-ts. */
import os from "node:os";
import path from "node:path";

/** The cache directory in use. */
export function rllmHome(environment: NodeJS.ProcessEnv = process.env): string {
  return environment.RLLM_HOME && environment.RLLM_HOME !== "" ? path.resolve(environment.RLLM_HOME) : path.join(os.homedir(), ".cache", "rllm-ts");
}
