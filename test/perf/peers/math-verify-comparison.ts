/**
 * Math grading beside Math-Verify: verdict agreement on the project's math suites, and whole-process verdicts/s of
 * `rllm grade --verifier math` against math-verify-grade.py on the same ≥ 3,000 rows. Our verdicts must be the same
 * in every round and on every repeat of a row, and are checked against the last run's (math-verdict-record.ts).
 */
import path from "node:path";
import { alternate, type PeerComparison, type PeerRow } from "./peer-comparison.js";
import { changedVerdicts, readVerdictRecord, type VerdictRecord, writeVerdictRecord } from "./math-verdict-record.js";
import { fixed, log, median, type PeersEnvironment, readJsonl, writeJsonl } from "./peers-environment.js";

interface MathSide {
  seconds: number;
  verdicts: (boolean | null)[];
}

const mathRowCount = 3000;

/** The math comparison against math-verify. */
export function mathVerifyComparison(environment: PeersEnvironment): PeerComparison {
  const { root, here, python, scratch, versions } = environment;
  // The project's math suites (cases.jsonl, and public-suites.jsonl from Math-Verify's, lighteval's and others'
  // tests), repeated to 3,000 rows for the rate.
  const mathSuites = [
    ...readJsonl(path.join(root, "test/verifiers/math/cases.jsonl")).map((row) => ({ response: row.response, ground_truth: row.ground_truth })),
    ...readJsonl(path.join(root, "test/verifiers/math/public-suites.jsonl")).map((row) => ({ response: row.prediction, ground_truth: row.gold })),
  ].filter((row) => row.ground_truth !== "" && !(Array.isArray(row.ground_truth) && row.ground_truth.every((truth) => truth === "")));
  const mathFile = path.join(scratch, "math-rows.jsonl");
  // The suite rows once each: the 3,000 rows repeat them, and this project keeps comparisons it has made (the same
  // answer against the same ground truth), which Math-Verify does not; this row shows the rate without repeats.
  const distinctFile = path.join(scratch, "math-distinct-rows.jsonl");
  const mathVerify: MathSide[] = [];
  const rllmMath: MathSide[] = [];
  const distinctMathVerify: number[] = [];
  const distinctRllm: MathSide[] = [];
  const recordFile = path.join(root, "docs/results/math-verdicts.json");
  let verdictCheck = "";

  const mathVerifySide = (file = mathFile): MathSide => {
    const output = path.join(scratch, "math-verify-out.jsonl");
    const run = environment.measure([python, path.join(here, "math-verify-grade.py"), file, output]);
    return { seconds: run.seconds, verdicts: readJsonl(output).map((row) => row.isCorrect as boolean) };
  };
  const rllmMathSide = (file = mathFile): MathSide => {
    const output = path.join(scratch, "rllm-math-out.jsonl");
    const run = environment.measure([...environment.rllm, "grade", "--verifier", "math", "--input", file, "--output", output]);
    return { seconds: run.seconds, verdicts: readJsonl(output).map((row) => (row.status === "scored" ? (row.isCorrect as boolean) : null)) };
  };

  return {
    name: "math",
    async start() {
      writeJsonl(mathFile, Array.from({ length: mathRowCount }, (_, index) => ({ id: index, ...mathSuites[index % mathSuites.length]! })));
      writeJsonl(distinctFile, mathSuites.map((row, index) => ({ id: index, ...row })));
      // One unmeasured run of each side, so that neither pays for the first read of its files (and Python for
      // compiling its bytecode cache) in a measured round.
      log("math warm-up (unmeasured)");
      mathVerifySide();
      rllmMathSide();
    },
    async round(round, rounds) {
      log(`round ${round + 1}/${rounds}: math`);
      for (const side of alternate(round, mathVerifySide, rllmMathSide)) (side === mathVerifySide ? mathVerify : rllmMath).push(side());
      for (const side of alternate(round, mathVerifySide, rllmMathSide)) {
        if (side === mathVerifySide) distinctMathVerify.push(side(distinctFile).seconds);
        else distinctRllm.push(side(distinctFile));
      }
    },
    async finish() {
      verdictCheck = checkOurVerdicts(rllmMath, distinctRllm, recordFile, mathSuites);
    },
    rows() {
      // Agreement over the distinct suite rows (the first mathSuites.length rows of the file).
      const verifyVerdicts = mathVerify[0]!.verdicts;
      const oursVerdicts = rllmMath[0]!.verdicts;
      let agree = 0;
      let oursUnscored = 0;
      for (let index = 0; index < mathSuites.length; index++) {
        if (oursVerdicts[index] === null) oursUnscored += 1;
        else if (oursVerdicts[index] === verifyVerdicts[index]) agree += 1;
      }
      const verifyRate = mathRowCount / median(mathVerify.map((side) => side.seconds));
      const oursMathRate = mathRowCount / median(rllmMath.map((side) => side.seconds));
      const rows: PeerRow[] = [
        {
          comparison: `math grading, ${mathRowCount.toLocaleString("en")} rows, whole process`,
          peer: `math-verify ${versions["math-verify"]}`,
          peerFigure: `${fixed(verifyRate, 0)} verdicts/s`,
          oursFigure: `${fixed(oursMathRate, 0)} verdicts/s (${oursVerdicts.filter((verdict) => verdict === null).length} unscored)`,
          ratio: `${fixed(oursMathRate / verifyRate, 1)}×`,
          goal: "≥ 50×",
        },
        {
          comparison: `math grading, the ${mathSuites.length.toLocaleString("en")} suite rows once each, whole process`,
          peer: `math-verify ${versions["math-verify"]}`,
          peerFigure: `${fixed(mathSuites.length / median(distinctMathVerify), 0)} verdicts/s`,
          oursFigure: `${fixed(mathSuites.length / median(distinctRllm.map((side) => side.seconds)), 0)} verdicts/s`,
          ratio: `${fixed(median(distinctMathVerify) / median(distinctRllm.map((side) => side.seconds)), 1)}×`,
          goal: "–",
        },
        {
          comparison: `math verdicts, ${mathSuites.length} suite rows`,
          peer: `math-verify ${versions["math-verify"]}`,
          peerFigure: `${verifyVerdicts.slice(0, mathSuites.length).filter(Boolean).length} correct`,
          oursFigure: `${oursVerdicts.slice(0, mathSuites.length).filter((verdict) => verdict === true).length} correct, ${oursUnscored} unscored; ${verdictCheck}`,
          ratio: `${fixed((100 * agree) / mathSuites.length, 1)}% agree`,
          goal: "–",
        },
      ];
      return rows;
    },
  };
}

/**
 * Checks that every round gave the same verdicts, that every repeat of a suite row got its first copy's verdict, that
 * the runs of the suite rows once each (other neighbours, other grading threads, fewer comparisons kept from earlier
 * rows) gave the suite rows' verdicts of the first round, and which verdicts changed since the recorded run; records
 * this run's. Returns the outcome for the table.
 */
function checkOurVerdicts(rounds: MathSide[], distinctRuns: MathSide[], recordFile: string, mathSuites: { response: unknown; ground_truth: unknown }[]): string {
  const first = rounds[0]!.verdicts;
  const unstableRounds = rounds.filter((side) => side.verdicts.some((verdict, index) => verdict !== first[index])).length;
  const unstableRepeats = first.filter((verdict, index) => verdict !== first[index % mathSuites.length]).length;
  const unstableDistinct = distinctRuns.filter((side) => side.verdicts.length !== mathSuites.length || side.verdicts.some((verdict, index) => verdict !== first[index])).length;
  if (unstableRounds + unstableRepeats + unstableDistinct > 0) {
    log(`math: ${unstableRounds} rounds, ${unstableRepeats} repeated rows and ${unstableDistinct} runs of the suite rows once each gave other verdicts than the first round`);
  }
  const current: VerdictRecord = mathSuites.map((row, index) => ({ response: row.response, ground_truth: row.ground_truth, isCorrect: first[index] ?? null }));
  const recorded = readVerdictRecord(recordFile);
  const changed = recorded ? changedVerdicts(recorded, current) : [];
  for (const change of changed) log(`math verdict changed, suite row ${change.row}: ${JSON.stringify(change.response)} against ${JSON.stringify(change.groundTruth)}: ${change.before} → ${change.after}`);
  writeVerdictRecord(recordFile, current);
  const stability =
    unstableRounds + unstableRepeats + unstableDistinct === 0
      ? "same in every round, repeat and run of the suite rows once each"
      : `${unstableRounds} rounds, ${unstableRepeats} repeats, ${unstableDistinct} runs of the suite rows once each differ`;
  return `${stability}, ${recorded ? `${changed.length} changed since the last run` : "first recorded run"}`;
}
