import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/run-cli.js";
import { lastUserText, startScriptedServer, type ScriptedServer } from "../../helpers/scripted-openai-server.js";

// Answers of the bundled sample in another form than the ground truth (letters, rounded decimals, degrees).
const replies: Record<string, string> = {
  "Find $m\\widehat{A B}$": "\\boxed{80^\\circ}",
  "Assume that segments that appear to be tangent are tangent.": "So $x = \\boxed{13}$.",
  "Find $\\sin x$": "\\boxed{\\frac{2\\sqrt{2}}{5}}",
  "Find y.": "\\boxed{8.66}",
  "find $\\angle Q$": "\\boxed{60}",
};

let server: ScriptedServer;
const out = path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-geo3k-eval-")), "run");

beforeAll(async () => {
  server = await startScriptedServer((body) => {
    const text = lastUserText(body);
    const key = Object.keys(replies).find((fragment) => text.includes(fragment));
    return { text: key ? `Reasoning...\n${replies[key]}` : "I am not sure about this diagram at all, so I will not give an answer." };
  });
});
afterAll(() => server.close());

describe("rllm eval geo3k", () => {
  it("sends each diagram as an image block and grades the answers with the math verifier", async () => {
    const result = await runCli(["eval", "geo3k", "--base-url", server.url, "--model", "vision", "--out", out]);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(out, "summary.json"), "utf8"));
    expect(summary.counts.episodes).toBe(10);
    // Four replies are right (80°, 13, 2√2/5, 8.66 for 5√3); the 60 for ∠Q = 120 and the five non-answers are wrong.
    expect(summary.metrics.accuracy.mean).toBeCloseTo(0.4, 10);
    const userContent = server.requests[0]!.body.messages[1].content;
    expect(userContent.some((block: { type: string; image_url?: { url: string } }) => block.type === "image_url" && block.image_url!.url.startsWith("data:image/png;base64,"))).toBe(true);
  });

  it("runs the generic math benchmark on a --data file", async () => {
    const data = path.join(path.dirname(out), "problems.jsonl");
    writeFileSync(
      data,
      [
        { id: "p1", question: "Half of one?", ground_truth: "\\frac{1}{2}" },
        { id: "p2", question: "Roots of x^2-1?", ground_truth: "-1, 1" },
      ]
        .map((row) => JSON.stringify(row))
        .join("\n") + "\n",
    );
    const mathServer = await startScriptedServer((body) => ({
      text: lastUserText(body).startsWith("Half") ? "\\boxed{0.5}" : "\\boxed{1, -1}",
    }));
    try {
      const mathOut = path.join(path.dirname(out), "math-run");
      const result = await runCli(["eval", "math", "--data", data, "--base-url", mathServer.url, "--model", "m", "--out", mathOut]);
      expect(result.code, result.stderr).toBe(0);
      const summary = JSON.parse(readFileSync(path.join(mathOut, "summary.json"), "utf8"));
      expect(summary.metrics.accuracy.mean).toBe(1);
    } finally {
      await mathServer.close();
    }
  });
});
