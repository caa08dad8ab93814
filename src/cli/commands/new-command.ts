/** `rllm new cookbook|benchmark|verifier <name>`: its help text and arguments (light, for help; the flags are in new-flags.ts); the files are written by new.ts. */
import { z } from "zod";
import { scaffoldKinds } from "../scaffold-templates.js";
import { defineCommand } from "../command-definition.js";
import { NewFlagsSchema } from "./new-flags.js";

/** `rllm new`. */
export const newCommand = defineCommand({
  name: "new",
  description:
    "Write a small working skeleton into ./<name>/ (or --out) that imports only the public package (rllm-ts), with a\n" +
    "README line on how to run it:\n" +
    "  cookbook    index.ts: an agent flow and its evaluator;\n" +
    "              npx rllm eval arith --cookbook ./<name>/index.ts\n" +
    "  benchmark   test.jsonl: {id, question, ground_truth} rows; register them,\n" +
    "              then run them by name:\n" +
    "              npx rllm dataset register <name> --split test \\\n" +
    "                --file ./<name>/test.jsonl\n" +
    "              npx rllm eval <name>\n" +
    "  verifier    verify.ts: answer + target → Score, and index.ts: a cookbook\n" +
    "              grading with it; npx rllm eval arith --cookbook ./<name>/index.ts\n" +
    "Each runs offline with the embedded tiny model (which answers arithmetic); --base-url and --model run it on a\n" +
    "real one. docs/architecture.md says where a built-in one goes instead.",
  arguments: z.tuple([
    z.enum(scaffoldKinds).describe(`what to write: ${scaffoldKinds.join(", ")}`).meta({ value: "kind" }),
    z
      .string()
      .regex(/^[a-z][a-z0-9-]*$/, "lower-case letters, digits and '-', starting with a letter")
      .describe("its name, and the folder's")
      .meta({ value: "name" }),
  ]),
  flags: NewFlagsSchema,
  loadAction: async () => (await import("./new.js")).newAction,
});
