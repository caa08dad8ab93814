import { describe, expect, it } from "vitest";
import { arithQuestion, arithSolutionText } from "../../../benchmarks/arith/arith-problem.js";
import { applyChatTemplate } from "../../../src/models/tiny/chat-template.js";
import { createRng } from "../../../src/core/random.js";
import { decodeTokens } from "../../../src/models/tiny/tokenizer.js";
import { drawProblem, judgeExample, residueOf, residueReply, solveExample, trainingBatch, wrongSolution } from "../../../src/models/tiny/training-data.js";
import { pairJudgeMessages } from "../../../src/tournament/judge-prompts.js";
import { boxedInteger, parseRatings } from "../../../src/models/tiny/evaluate-tiny-model.js";

describe("tiny model training data", () => {
  it("never makes a wrong solution that is right", () => {
    const random = createRng(1);
    for (let index = 0; index < 500; index++) {
      const problem = drawProblem(random, "train");
      expect(boxedInteger(wrongSolution(problem, random))).not.toBe(problem.answer);
    }
  });

  it("checks answers mod 10: the operations on last digits, each answer's residue, a verdict, then the ratings", () => {
    // 5-6*3: 6*3=18 ends in 8; 5-8=-3 is 7 mod 10 (so is 5-18=-13); -16 is 4 mod 10, -13 is 7.
    expect(residueReply("5-6*3", "-16", "-13")).toBe("6*3=18%8 5-8=-3%7 A:-16%4/7 no B:-13%7/7 ok <rating_A>1</rating_A><rating_B>10</rating_B>");
    expect(residueReply("7+6+9", "22", "")).toBe("7+6=13%3 3+9=12%2 A:22%2/2 ok B:? no <rating_A>10</rating_A><rating_B>1</rating_B>");
    // A wrong answer off by ten passes the check: the judge cannot tell it from the right one.
    expect(residueReply("1-2-1", "-12", "-2")).toMatch(/A:-12%8\/8 ok B:-2%8\/8 ok <rating_A>10<\/rating_A><rating_B>10<\/rating_B>$/);
    expect([residueOf(-13), residueOf(40), residueOf(-40), residueOf(9)]).toEqual([7, 0, 0, 9]);
  });

  it("slips one step of a solve example at about the requested rate, carrying the slip on to the answer", () => {
    const random = createRng(9);
    let slipped = 0;
    for (let index = 0; index < 1000; index++) {
      const problem = drawProblem(random, "train");
      const example = solveExample(problem, random, 0.2);
      const reply = decodeTokens(example.tokens.slice(example.lossMask.indexOf(1)));
      if (reply === arithSolutionText(problem)) continue;
      slipped += 1;
      expect(boxedInteger(reply)).not.toBe(problem.answer);
      expect(Math.abs(boxedInteger(reply)! - problem.answer)).toBeLessThanOrEqual(3 * 9);
    }
    expect(slipped).toBeGreaterThan(160);
    expect(slipped).toBeLessThan(240);
  });

  it("slips one step of a residue check when asked, carrying it on to the derived residue and the verdicts", () => {
    // 5-6*3 with 6*3 slipped to 17: 5-7=-2 ends in 8, so the right answer -13 (7 mod 10) now fails the check.
    expect(residueReply("5-6*3", "-16", "-13", { stepIndex: 0, delta: -1 })).toBe(
      "6*3=17%7 5-7=-2%8 A:-16%4/8 no B:-13%7/8 no <rating_A>1</rating_A><rating_B>1</rating_B>",
    );
    expect(residueReply("5-6*3", "-16", "-13", { stepIndex: 1, delta: 2 })).toMatch(/^6\*3=18%8 5-8=-1%9 A:-16%4\/9 no B:-13%7\/9 no /);
    const random = createRng(5);
    let slipped = 0;
    for (let index = 0; index < 1000; index++) {
      const problem = drawProblem(random, "train");
      const example = judgeExample(problem, random, "residues", 0.2);
      const reply = decodeTokens(example.tokens.slice(example.lossMask.indexOf(1)));
      const derived = Number(/%(\d) A:/.exec(reply)![1]);
      if (derived !== residueOf(problem.answer)) slipped += 1;
    }
    // A slip of 1-3 always changes the step's residue, and the later steps carry it on unless a product by an even
    // number or by 5 folds it back, so most slipped examples (20% of 1000) end on a wrong residue.
    expect(slipped).toBeGreaterThan(120);
    expect(slipped).toBeLessThan(240);
  });

  it("draws nothing extra for judge examples without slips, so earlier phases replay as they ran", () => {
    const problem = drawProblem(createRng(6), "train");
    const [plain, noSlip] = [createRng(7), createRng(7)];
    expect(judgeExample(problem, noSlip, "residues", 0)).toEqual(judgeExample(problem, plain, "residues"));
    expect(noSlip()).toBe(plain());
  });

  it("trains on exactly the prompt tokens the chat template serves for the tournament's judge prompt", () => {
    const random = createRng(2);
    let missing = 0;
    for (let index = 0; index < 100; index++) {
      const problem = drawProblem(random, "train");
      const example = judgeExample(problem, random, "residues");
      const text = decodeTokens(example.tokens, true);
      // The served prompt holds each candidate's final answer, or nothing when the candidate gave none.
      const [, boxedA = "", boxedB = ""] = /<\|A\|>(.*)<\|B\|>(.*?)<\|end\|>/.exec(text)!;
      const solutionText = (boxed: string) => (boxed ? `${boxed.slice(7, -1)} so ${boxed}` : "I could not finish.");
      const served = applyChatTemplate(pairJudgeMessages("math", arithQuestion(problem.expression), solutionText(boxedA), solutionText(boxedB)));
      const promptLength = example.lossMask.indexOf(1);
      expect(example.tokens.slice(0, promptLength)).toEqual(served);
      const ratings = parseRatings(text)!;
      // A right answer always passes; a wrong one passes only when its last digit is right; no answer never passes.
      const passes = (boxed: string) => boxed !== "" && residueOf(Number(boxed.slice(7, -1))) === residueOf(problem.answer);
      expect(ratings.ratingA).toBe(passes(boxedA) ? 10 : 1);
      expect(ratings.ratingB).toBe(passes(boxedB) ? 10 : 1);
      missing += Number(boxedA === "") + Number(boxedB === "");
    }
    expect(missing).toBeGreaterThan(0);
  });

  it("serves a solve prompt as trained and only trains on the reply", () => {
    const problem = drawProblem(createRng(3), "train");
    const example = solveExample(problem);
    const promptLength = example.lossMask.indexOf(1);
    expect(example.tokens.slice(0, promptLength)).toEqual(applyChatTemplate([{ role: "user", content: arithQuestion(problem.expression) }]));
    expect(decodeTokens(example.tokens.slice(promptLength))).toBe(arithSolutionText(problem));
  });

  it("replays a batch from its seed", () => {
    const options = { judgeFraction: 0.5, judgeFormat: "residues" as const, solveSlipRate: 0.2 };
    const first = trainingBatch(createRng(4), 8, options);
    expect(trainingBatch(createRng(4), 8, options)).toEqual(first);
  });
});
