/**
 * The files `rllm new` writes: a small working cookbook, benchmark or verifier that imports only the public package
 * entries (`rllm-ts/core`, `rllm-ts/flows`), so a newcomer starts from code built the way the built-ins are, and learns where each piece belongs.
 */

/** What `rllm new` can scaffold. */
export const scaffoldKinds = ["cookbook", "benchmark", "verifier"] as const;
export type ScaffoldKind = (typeof scaffoldKinds)[number];

/** One scaffold: its files by path inside the folder, and the command that runs it from the folder's parent. */
export interface Scaffold {
  files: Record<string, string>;
  runCommand: string;
}

/** The scaffold of `kind` called `name`, to be written into `folder` (as the commands it shows spell it: `./name`). */
export function scaffoldFiles(kind: ScaffoldKind, name: string, folder: string): Scaffold {
  switch (kind) {
    case "cookbook":
      return cookbookScaffold(name, folder);
    case "benchmark":
      return benchmarkScaffold(name, folder);
    case "verifier":
      return verifierScaffold(name, folder);
  }
}

/** The skeletons' answer extraction: the last \boxed{…} of a reply, else its last non-empty line. */
const finalAnswerSource = `/** The reply's final answer: the last \\boxed{…}, else its last non-empty line. */
function finalAnswer(text: string): string {
  const boxed = [...text.matchAll(/\\\\boxed\\{([^{}]*)\\}/g)].at(-1)?.[1];
  if (boxed !== undefined) return boxed.trim();
  return text.split("\\n").map((line) => line.trim()).filter((line) => line !== "").at(-1) ?? "";
}
`;

function cookbookScaffold(name: string, folder: string): Scaffold {
  const runCommand = `npx rllm eval arith --cookbook ${folder}/index.ts`;
  const index = `/** The \`${name}\` cookbook: one model call per task (its flow), graded by exact match of the final answer (its evaluator). */
import { episodeAnswer, scored, unscored, type Cookbook } from "rllm-ts/core";
import { singleTurnFlow, systemThenInstruction } from "rllm-ts/flows";

const systemPrompt = "Answer the question. Put your final answer on the last line, or inside \\\\boxed{}.";

${finalAnswerSource}
const cookbook: Cookbook = {
  name: "${name}",
  description: "Single-turn question answering, graded by exact match of the final answer.",
  // The flow: the system prompt, then the task's question; one reply.
  flow: singleTurnFlow(systemThenInstruction(systemPrompt)),
  // The evaluator: a Score for the episode; no ground truth to compare with is "unscored", never a silent 0.
  evaluate(task, episode) {
    const expected = String(task.metadata.ground_truth ?? "").trim().toLowerCase();
    if (expected === "") return unscored(\`task \${task.id} has no ground_truth\`);
    const answer = finalAnswer(episodeAnswer(episode)).toLowerCase();
    const isCorrect = answer === expected;
    return scored(isCorrect ? 1 : 0, isCorrect, { answer, explanation: isCorrect ? "exact match" : \`expected "\${expected}"\` });
  },
};
export default cookbook;
`;
  const readme = `# ${name}

A cookbook for \`rllm eval\`: \`index.ts\` exports its agent flow and its evaluator.

Run it offline on arithmetic, which the embedded tiny model answers:

    ${runCommand} --limit 5

On the bundled \`qa\` questions, or your own rows \`{id, question, ground_truth}\` (\`--data rows.jsonl\`), with a real model:

    npx rllm eval qa --cookbook ${folder}/index.ts --base-url http://localhost:8000/v1 --model <name>
`;
  return { files: { "index.ts": index, "README.md": readme }, runCommand };
}

function benchmarkScaffold(name: string, folder: string): Scaffold {
  const runCommand = `npx rllm dataset register ${name} --file ${folder}/test.jsonl --split test && npx rllm eval ${name}`;
  const rows = [
    { id: `${name}-1`, question: "What is 2 + 3?", ground_truth: "5" },
    { id: `${name}-2`, question: "What is the capital of Italy?", ground_truth: "Rome" },
    { id: `${name}-3`, question: "How many legs does a spider have?", ground_truth: "8" },
  ];
  const readme = `# ${name}

A benchmark for \`rllm eval\`: \`test.jsonl\` holds its tasks, one \`{id, question, ground_truth}\` row per line.
Replace the three examples with your own rows.

Register the rows as the dataset \`${name}\` (a \`train\` split works the same way), then evaluate it by name (offline,
with the embedded tiny model; add \`--base-url\` and \`--model\` for a real one):

    ${runCommand.replace(" && ", "\n    ")}

Without registering: \`npx rllm eval qa --data ${folder}/test.jsonl\`. Registered rows are graded by the \`qa\`
cookbook unless \`--cookbook\` names another (\`rllm new cookbook\` writes one).
`;
  return { files: { "test.jsonl": rows.map((row) => JSON.stringify(row)).join("\n") + "\n", "README.md": readme }, runCommand };
}

function verifierScaffold(name: string, folder: string): Scaffold {
  const runCommand = `npx rllm eval arith --cookbook ${folder}/index.ts`;
  const verify = `/** The \`${name}\` verifier: a pure function from an answer and its target to a Score (no clock, no network, no files). */
import { scored, unscored, type Score } from "rllm-ts/core";

/** Numbers compare by value ("7.0" is 7), anything else by its trimmed, lower-cased text. */
export function verify(answer: string, target: string): Score {
  const expected = target.trim().toLowerCase();
  if (expected === "") return unscored("no target to compare with");
  const given = answer.trim().toLowerCase();
  const isNumber = (text: string) => text !== "" && Number.isFinite(Number(text));
  const isCorrect = isNumber(given) && isNumber(expected) ? Number(given) === Number(expected) : given === expected;
  return scored(isCorrect ? 1 : 0, isCorrect, { answer: given, explanation: isCorrect ? "match" : \`expected "\${expected}"\` });
}
`;
  const index = `/** A cookbook that grades with the \`${name}\` verifier (verify.ts), so \`rllm eval\` can run it. */
import { episodeAnswer, type Cookbook } from "rllm-ts/core";
import { singleTurnFlow, systemThenInstruction } from "rllm-ts/flows";
import { verify } from "./verify.js";

${finalAnswerSource}
const cookbook: Cookbook = {
  name: "${name}",
  description: "Single-turn question answering graded by the ${name} verifier.",
  flow: singleTurnFlow(systemThenInstruction("Answer the question. Put your final answer on the last line, or inside \\\\boxed{}.")),
  evaluate: (task, episode) => verify(finalAnswer(episodeAnswer(episode)), String(task.metadata.ground_truth ?? "")),
};
export default cookbook;
`;
  const readme = `# ${name}

A verifier: \`verify.ts\` turns an answer and its target into a Score (\`scored\` with a value and isCorrect, or
\`unscored\` when it cannot tell). Check that a gold answer gets full marks and a near miss does not.
\`index.ts\` is a cookbook that grades with it, so \`rllm eval\` runs it; offline on arithmetic, which the embedded
tiny model answers:

    ${runCommand} --limit 5

With a real model, on the bundled \`qa\` questions or your own rows (\`--data rows.jsonl\`):

    npx rllm eval qa --cookbook ${folder}/index.ts --base-url http://localhost:8000/v1 --model <name>
`;
  return { files: { "verify.ts": verify, "index.ts": index, "README.md": readme }, runCommand };
}
