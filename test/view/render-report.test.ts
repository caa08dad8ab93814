import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { EpisodeSchema } from "../../src/core/episode.js";
import { InputError } from "../../src/core/errors/input-error.js";
import { compareRuns } from "../../src/view/compare-runs.js";
import { renderReport } from "../../src/view/render-report.js";
import type { RunData } from "../../src/view/run-data.js";

const run = (benchmark: string, verdicts: boolean[], answer = "4"): RunData => ({
  directory: `runs/${benchmark}`,
  kind: "eval",
  config: { formatVersion: 2, benchmark, model: "m" },
  summary: null,
  episodes: verdicts.map((isCorrect, index) =>
    EpisodeSchema.parse({ id: `t${index}:0`, taskId: `t${index}`, attempt: 0, score: { value: isCorrect ? 1 : 0, isCorrect, status: "scored", answer } }),
  ),
  tournaments: [],
  training: [],
});

function payloadOf(html: string): any {
  const data = /<script type="application\/octet-stream" id="report-data">([^<]*)<\/script>/.exec(html)![1]!;
  return JSON.parse(gunzipSync(Buffer.from(data, "base64")).toString("utf8"));
}

describe("renderReport", () => {
  it("inlines the data and the code, and forbids every fetch but the live view's own", () => {
    const html = renderReport({ kind: "run", run: run("qa", [true]), live: null });
    expect(html).toContain("default-src 'none'; img-src data:;");
    expect(html).toContain("connect-src 'self'");
    expect(html).not.toMatch(/<script[^>]* src=|<link /);
    expect(payloadOf(html).run.episodes[0].id).toBe("t0:0");
  });

  it("keeps data that contains a closing script tag inside its element", () => {
    const html = renderReport({ kind: "run", run: run("qa", [true], "</script><script>alert(1)</script>"), live: null });
    // The data element and the code element are the only two script elements closed.
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(payloadOf(html).run.episodes[0].score.answer).toBe("</script><script>alert(1)</script>");
  });
});

describe("compareRuns", () => {
  it("refuses runs of different benchmarks, naming both, unless forced", () => {
    expect(() => compareRuns(run("qa", [true]), run("math", [false]), { force: false })).toThrow(InputError);
    expect(() => compareRuns(run("qa", [true]), run("math", [false]), { force: false })).toThrow("runs/qa ran benchmark qa and runs/math ran math");
    const forced = compareRuns(run("qa", [true]), run("math", [false]), { force: true });
    expect(forced.comparison.solvedOnlyByA).toEqual(["t0"]);
    expect(forced.taskRows).toEqual([["t0", 1, 0]]);
  });
});
