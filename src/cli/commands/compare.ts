/** `rllm compare <runA> <runB> [--html out.html] [--force]`'s action: paired figures in the terminal and as a page. */
import { writeFileSync } from "node:fs";
import { compareRuns, type RunComparison } from "../../view/compare-runs.js";
import { readRunDirectory } from "../../view/read-run-directory.js";
import { renderReport } from "../../view/render-report.js";
import { assertWritableOutput } from "../../core/check-paths.js";
import type { CompareFlags } from "./compare-flags.js";

const listedTasks = 20;

/** Prints the comparison of run B against run A, and writes its page with --html. */
export async function compareAction(flags: CompareFlags, [directoryA, directoryB]: [string, string]): Promise<void> {
  if (flags.html) assertWritableOutput("--html", flags.html);
  const comparison = compareRuns(readRunDirectory(directoryA).run, readRunDirectory(directoryB).run, { force: flags.force });
  console.log(formatComparison(comparison));
  if (flags.html) {
    writeFileSync(flags.html, renderReport({ kind: "compare", compare: comparison }));
    console.log(`report → ${flags.html}`);
  }
}

/** The terminal table of a comparison. */
export function formatComparison({ a, b, comparison, rerank }: RunComparison): string {
  const points = (value: number) => `${value >= 0 ? "+" : ""}${(100 * value).toFixed(1)}`;
  const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
  const signed = (value: number) => `${value >= 0 ? "+" : ""}${value.toFixed(1)}`;
  const list = (tasks: string[]) =>
    tasks.length === 0 ? "none" : tasks.slice(0, listedTasks).join(", ") + (tasks.length > listedTasks ? `, … and ${tasks.length - listedTasks} more` : "");
  const rows: [string, string][] = [
    ["A", `${a.directory} (${a.benchmark ?? "?"} · ${a.model ?? "?"} · ${a.tasks} tasks)`],
    ["B", `${b.directory} (${b.benchmark ?? "?"} · ${b.model ?? "?"} · ${b.tasks} tasks)`],
    ["shared tasks", String(comparison.tasks)],
    ["accuracy A", percent(comparison.accuracyA)],
    ["accuracy B", percent(comparison.accuracyB)],
    ["B − A", `${points(comparison.difference)} ± ${(100 * comparison.stderr).toFixed(1)} points (paired SE), 95% CI ${points(comparison.ci95[0])} to ${points(comparison.ci95[1])}`],
    ["McNemar (exact)", `${comparison.mcnemar.onlyA} solved by A alone, ${comparison.mcnemar.onlyB} by B alone: p = ${comparison.mcnemar.pValue.toPrecision(3)}`],
    ["solved by A alone", list(comparison.solvedOnlyByA)],
    ["solved by B alone", list(comparison.solvedOnlyByB)],
    ...rerank.flatMap(({ method, rerankAt1, judgeCalls }): [string, string][] => [
      [
        `rerank@1 ${method}`,
        `A ${percent(rerankAt1.accuracyA)}, B ${percent(rerankAt1.accuracyB)} over ${rerankAt1.tasks} tasks: B − A ${points(rerankAt1.difference)} ± ${(100 * rerankAt1.stderr).toFixed(1)} points (paired SE), ` +
          `95% CI ${points(rerankAt1.ci95[0])} to ${points(rerankAt1.ci95[1])}; McNemar ${rerankAt1.mcnemar.onlyA} vs ${rerankAt1.mcnemar.onlyB}: p = ${rerankAt1.mcnemar.pValue.toPrecision(3)}`,
      ],
      [
        `judge calls ${method}`,
        `A ${judgeCalls.meanA.toFixed(1)}, B ${judgeCalls.meanB.toFixed(1)} per task: B − A ${signed(judgeCalls.difference)} ± ${judgeCalls.stderr.toFixed(1)} (paired SE), ` +
          `95% CI ${signed(judgeCalls.ci95[0])} to ${signed(judgeCalls.ci95[1])}`,
      ],
    ]),
  ];
  const width = Math.max(18, ...rows.map(([label]) => label.length + 1));
  return rows.map(([label, value]) => `  ${label.padEnd(width)}${value}`).join("\n");
}
