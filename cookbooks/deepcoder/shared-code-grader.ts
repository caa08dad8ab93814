/**
 * One code grader per process for the cookbook's evaluator, created on first use with the default options: the local
 * sandbox, or the sandbox services that `$RLLM_HOME/config.json`'s `sandbox.urls` names (docs/code-sandbox.md).
 */
import { readUserConfig, rllmHome } from "rllm-ts/core";
import { configuredSandboxUrls, openProgramGrader, sandboxHostAddresses, type ProgramGrader } from "rllm-ts/verifiers/code";

let grader: Promise<ProgramGrader> | undefined;

/** The process-wide grader (6 s per test, stop at the first failure); a local sandbox is probed once. */
export function sharedCodeGrader(): Promise<ProgramGrader> {
  grader ??= openConfiguredGrader().catch((error: unknown) => {
    grader = undefined;
    throw error;
  });
  return grader;
}

function openConfiguredGrader(): Promise<ProgramGrader> {
  const services = readUserConfig(rllmHome()).sandbox;
  if (!services) return openProgramGrader({});
  return openProgramGrader({}, { hosts: sandboxHostAddresses(configuredSandboxUrls(services), services, process.env) });
}
