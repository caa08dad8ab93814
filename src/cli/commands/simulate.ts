/** `rllm simulate tournament`'s action: Monte-Carlo selection accuracy of V1 and the baselines on simulated judges (table or --json). */
import type { SimulationRow } from "../../tournament/simulate-tournament.js";
import { simulateTournament } from "../../tournament/simulate-tournament.js";
import type { SimulateFlags } from "./simulate-command.js";

/** Runs the simulation and prints a table per judge accuracy, or the rows as JSON. */
export function simulateAction(flags: SimulateFlags): void {
  const rows = flags.judgeAccuracy.flatMap((judgeAccuracy) => simulateTournament(simulationFor(flags, judgeAccuracy)));
  console.log(flags.json ? JSON.stringify(rows, null, 2) : formatRows(rows));
}

function simulationFor(flags: SimulateFlags, judgeAccuracy: number) {
  return {
    world: {
      n: flags.n,
      correctProb: flags.correctProb,
      correctCount: flags.correctCount,
      judgeAccuracy,
      positionBias: flags.positionBias,
      persistence: flags.persistence,
      judgeModel: flags.judgeModel,
      saturation: flags.saturation,
      qualitySpread: flags.qualitySpread,
      pointwiseInflation: flags.pointwiseInflation,
    },
    methods: flags.methods,
    budgets: flags.budgets,
    trials: flags.trials,
    seed: flags.seed,
    knockoutK: flags.knockoutK,
    slots: flags.slots,
    v1: { swissRepeats: flags.swissRepeats, budgetOverflow: flags.budgetOverflow },
  };
}

/** A plain-text table, one block per judge accuracy. */
function formatRows(rows: readonly SimulationRow[]): string {
  const lines: string[] = [];
  const header = ["method", "budget", "calls", "select acc", "± se", "gap closed"];
  for (const judgeAccuracy of [...new Set(rows.map((row) => row.judgeAccuracy))]) {
    const block = rows.filter((row) => row.judgeAccuracy === judgeAccuracy);
    const first = block[0]!;
    lines.push(`judge accuracy ${judgeAccuracy}, n ${first.n}: pass@1 ${first.passAt1.toFixed(3)}, pass@N ${first.passAtN.toFixed(3)}`);
    const cells = block.map((row) => [
      row.method,
      `${row.budget}×N`,
      row.judgeCalls.toFixed(1),
      row.selectAccuracy.toFixed(3),
      row.stderr.toFixed(3),
      row.gapClosed.toFixed(3),
    ]);
    const widths = header.map((title, column) => Math.max(title.length, ...cells.map((cell) => cell[column]!.length)));
    const format = (cell: string[]) => cell.map((value, column) => (column === 0 ? value.padEnd(widths[column]!) : value.padStart(widths[column]!))).join("  ");
    lines.push(format(header), ...cells.map(format), "");
  }
  return lines.join("\n").trimEnd();
}
