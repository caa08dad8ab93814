/**
 * One code grader per process for the cookbook's evaluator, created on first use with the default options: the local
 * sandbox, or the sandbox services that `$RLLM_HOME/config.json`'s `sandbox.urls` names (docs/code-sandbox.md).
 */
import { readUserConfig, rllmHome } from "rllm-ts/core";
import { configuredSandboxUrls, openProgramGrader, sandboxHostAddresses, type ProgramGrader } from "rllm-ts/verifiers/code";

// One grader per time limit: DeepCoder's 6 s per test, EvalPlus's 60 s for a whole check().
const graders = new Map<number, Promise<ProgramGrader>>();

/** The process-wide grader for `timeoutSeconds` per test (6 by default; stop at the first failure); a local sandbox is probed once. */
export function sharedCodeGrader(timeoutSeconds = 6): Promise<ProgramGrader> {
  let grader = graders.get(timeoutSeconds);
  if (!grader) {
    grader = openConfiguredGrader(timeoutSeconds).catch((error: unknown) => {
      graders.delete(timeoutSeconds);
      throw error;
    });
    graders.set(timeoutSeconds, grader);
  }
  return grader;
}

function openConfiguredGrader(timeoutSeconds: number): Promise<ProgramGrader> {
  const services = readUserConfig(rllmHome()).sandbox;
  if (!services) return openProgramGrader({ timeoutSeconds });
  return openProgramGrader({ timeoutSeconds }, { hosts: sandboxHostAddresses(configuredSandboxUrls(services), services, process.env) });
}
