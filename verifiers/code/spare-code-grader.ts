/**
 * A code grader opened ahead of need. `rllm grade --verifier code` opens it before the CLI loads its flag schemas and
 * reads the rows: finding Python and starting the sandbox slots (bubblewrap, the interpreter, the fork server, the
 * probe run, about 0.1 s) then run beside node's own start-up instead of after it. The grader the run opens adopts it
 * when it was opened with the same options; otherwise it is closed, and `closeSpareCodeGrader` closes one never taken.
 */
import { isDeepStrictEqual } from "node:util";
import { CodeGrader, CodeGraderOptionsSchema, type CodeGraderOptions } from "./code-grader.js";
import { SandboxLimitsSchema } from "rllm-ts/sandbox";

let spare: { options: CodeGraderOptions; grader: Promise<CodeGrader> } | undefined;

/**
 * Opens the spare grader for `options` unless one is waiting, and returns the one waiting. A failure to open is kept
 * for the taker to report.
 */
export function startSpareCodeGrader(options: CodeGraderOptions): Promise<CodeGrader> {
  if (spare) return spare.grader;
  const grader = CodeGrader.create(options);
  // Unhandled until taken: the run that takes it sees the failure, one that never does loses nothing.
  grader.catch(() => undefined);
  spare = { options, grader };
  return grader;
}

/**
 * The spare grader when it was opened with options equal to `options` (after defaults), handed over once; otherwise
 * undefined, and a spare opened for other options is closed.
 */
export function takeSpareCodeGrader(options: CodeGraderOptions): Promise<CodeGrader> | undefined {
  const taken = spare;
  spare = undefined;
  if (!taken) return undefined;
  if (isDeepStrictEqual(withDefaults(taken.options), withDefaults(options))) return taken.grader;
  void closeGrader(taken.grader);
  return undefined;
}

/** Closes the spare grader if no run took it (the command failed before grading, or graded elsewhere). */
export async function closeSpareCodeGrader(): Promise<void> {
  const taken = spare;
  spare = undefined;
  if (taken) await closeGrader(taken.grader);
}

async function closeGrader(grader: Promise<CodeGrader>): Promise<void> {
  try {
    await (await grader).close();
  } catch {
    // It never opened: nothing to close.
  }
}

// Options as CodeGrader.create reads them: defaults filled in, the limits too, and absent and undefined fields alike
// (JSON drops undefined).
function withDefaults(options: CodeGraderOptions): unknown {
  const parsed = CodeGraderOptionsSchema.parse(options);
  return JSON.parse(JSON.stringify({ ...parsed, limits: SandboxLimitsSchema.parse(parsed.limits) }));
}
