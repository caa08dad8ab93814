/** The `arith` benchmark: generated 2–3 operand integer expressions (test split 100, train 2000, rl 500), answered as `\boxed{n}`. */
import { InputError, loadQaTasks, type Benchmark } from "rllm-ts/core";
import { ARITH_SPLITS, arithTasks, type ArithSplit } from "./arith-tasks.js";

export const arithBenchmark: Benchmark = {
  name: "arith",
  description:
    "Synthetic arithmetic (e.g. 12+7*3) solved step by step, answer in \\boxed{}; generated offline from a seed " +
    "(--split test: 100 tasks, train: 2000, rl: 500; the splits never overlap). The embedded tiny model was trained on the " +
    "train side only; rl holds other held-out problems, for RL prompts the model has not memorised.",
  defaultCookbook: "arith",
  catalog: { kind: "math", size: "generated", licence: "generated here", grader: "exact integer" },
  async loadTasks(options) {
    if (options.dataFile) return loadQaTasks(options.dataFile);
    const split = options.split ?? "test";
    if (!(split in ARITH_SPLITS)) throw new InputError(`arith: unknown split "${split}" (use ${Object.keys(ARITH_SPLITS).join(", ").replace(/, ([^,]*)$/, " or $1")})`);
    return arithTasks(split as ArithSplit);
  },
};

// The problems themselves, for the embedded model trained and measured on them (src/models/tiny).
export {
  applyOperator,
  arithQuestion,
  arithSolutionText,
  arithSplitOf,
  checkOperandCount,
  generateArithProblem,
  operationsInOrder,
  parseArithExpression,
  solveArith,
  type ArithOperation,
  type ArithProblem,
  type ArithSlip,
  type Operator,
} from "./arith-problem.js";
export { ARITH_SPLITS, arithTasks, type ArithSplit } from "./arith-tasks.js";
