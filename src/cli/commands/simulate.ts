/** `rllm simulate tournament`'s action: Monte-Carlo selection accuracy of V1 and the baselines on simulated judges (table or --json). */
import type { SimulationRow } from "../../tournament/simulate-tournament.js";
import { simulateTournament } from "../../tournament/simulate-tournament.js";
import type { SimulateFlags } from "./simulate-flags.js";

/** Runs the simulation and prints a table per judge accuracy, or the rows as JSON. */
export function simulateAction(flags: SimulateFlags): void {
  const rows = flags.n.flatMap((n) => flags.judgeAccuracy.flatMap((judgeAccuracy) => simulateTournament(simulationFor(flags, n, judgeAccuracy))));
  console.log(flags.json ? JSON.stringify(rows, null, 2) : formatRows(rows));
}

function simulationFor(flags: SimulateFlags, n: number, judgeAccuracy: number) {
  return {
    world: {
      n,
      correctProb: flags.correctProb,
      correctCount: flags.correctCount,
      judgeAccuracy,
      positionBias: flags.positionBias,
      persistence: flags.persistence,
      judgeModel: flags.judgeModel,
      saturation: flags.saturation,
      qualitySpread: flags.qualitySpread,
      pointwiseInflation: flags.pointwiseInflation,
      answers: flags.answers,
    },
    methods: flags.methods,
    budgets: flags.budgets,
    trials: flags.trials,
    seed: flags.seed,
    knockoutK: flags.knockoutK,
    slots: flags.slots,
    v1: { swissRepeats: flags.swissRepeats, budgetOverflow: flags.budgetOverflow },
    duel: { clusters: flags.clusters === "on", confidence: flags.confidence },
  };
}

/** A plain-text table, one block per candidate count and judge accuracy. */
function formatRows(rows: readonly SimulationRow[]): string {
  const lines: string[] = [];
  const header = ["method", "budget", "calls", "select acc", "± se", "95% CI", "gap closed"];
  const blocks = [...new Set(rows.map((row) => `${row.n}/${row.judgeAccuracy}`))];
  for (const block of blocks.map((key) => rows.filter((row) => `${row.n}/${row.judgeAccuracy}` === key))) {
    const first = block[0]!;
    lines.push(`judge accuracy ${first.judgeAccuracy}, n ${first.n}: pass@1 ${first.passAt1.toFixed(3)}, pass@N ${first.passAtN.toFixed(3)}`);
    const cells = block.map((row) => [
      row.method,
      `${row.budget}×N`,
      row.judgeCalls.toFixed(1),
      row.selectAccuracy.toFixed(3),
      row.stderr.toFixed(3),
      `${row.ci95[0].toFixed(3)}–${row.ci95[1].toFixed(3)}`,
      row.gapClosed.toFixed(3),
    ]);
    const widths = header.map((title, column) => Math.max(title.length, ...cells.map((cell) => cell[column]!.length)));
    const format = (cell: string[]) => cell.map((value, column) => (column === 0 ? value.padEnd(widths[column]!) : value.padStart(widths[column]!))).join("  ");
    lines.push(format(header), ...cells.map(format), "");
  }
  return lines.join("\n").trimEnd();
}
