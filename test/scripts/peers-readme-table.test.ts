import { describe, expect, it } from "vitest";
import { peersReadmeTable, type PeersReport } from "../../scripts/peers-readme-table.js";

const report: PeersReport = {
  date: "2026-12-04",
  machine: "2 cores, Test CPU",
  loadAverage: { start: [3.5, 2, 1], end: [4, 3, 2] },
  rounds: 3,
  versions: { "math-verify": "0.9.0" },
  rows: [{ comparison: "math grading", peer: "math-verify 0.9.0", peerFigure: "20 verdicts/s", oursFigure: "1000 verdicts/s", ratio: "50.0×", goal: "≥ 50×" }],
};

describe("peersReadmeTable", () => {
  it("writes the bench's rows between the markers with the date, machine, load and rounds", () => {
    const table = peersReadmeTable(report);
    expect(table.startsWith("<!-- peers-table:start -->")).toBe(true);
    expect(table.endsWith("<!-- peers-table:end -->")).toBe(true);
    expect(table).toContain("2026-12-04, 2 cores, Test CPU, load average 3.5 2 1 at the start and 4 3 2 at the end");
    expect(table).toContain("median of 3 alternating rounds");
    expect(table).toContain("| math grading | math-verify 0.9.0 | 20 verdicts/s | 1000 verdicts/s | 50.0× | ≥ 50× |");
  });

  it("calls a run whose load stayed within the core count quiet, and any other shared and indicative", () => {
    expect(peersReadmeTable(report)).toContain("(a shared machine: indicative figures)");
    expect(peersReadmeTable({ ...report, loadAverage: { start: [0.4, 0.7, 0.6], end: [1.9, 1, 0.7] } })).toContain("(a quiet machine)");
    expect(peersReadmeTable({ ...report, machine: "an unknown machine", loadAverage: { start: [0.4, 0, 0], end: [0.5, 0, 0] } })).toContain("indicative figures");
  });
});
