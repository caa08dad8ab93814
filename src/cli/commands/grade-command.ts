/** `rllm grade`: its help text and arguments (light, for help; the flags are in grade-flags.ts); the grading itself is in grade.ts. */
import { defineCommand, noArguments } from "../command-definition.js";
import { GradeFlagsSchema } from "./grade-flags.js";
import { startGrading } from "./grade-start.js";

/** `rllm grade`. */
export const gradeCommand = defineCommand({
  name: "grade",
  description:
    "Grade rows of a JSONL file with a verifier. Each output row is the input row plus its Score\n" +
    "(value, isCorrect, status scored|unscored, answer, explanation, signals; see docs/file-formats.md).\n" +
    "Prints the accuracy of the scored rows, and counts unscored rows, timeouts and infrastructure\n" +
    "errors apart (those are not counted in the accuracy).",
  arguments: noArguments,
  flags: GradeFlagsSchema,
  // The verifier's pool starts here, as the flags parse, and warms up while the action and the verifier load.
  start: startGrading,
  loadAction: async () => (await import("./grade.js")).gradeAction,
});
