/** `rllm view <run-dir> [--out report.html] [--serve]`'s action: writes a run's report, or serves it live. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { InputError } from "../../core/errors/input-error.js";
import { assertRunDirectoryExists, readRunDirectory } from "../../view/read-run-directory.js";
import { isSetDirectory, readSetDirectory } from "../../view/read-set-directory.js";
import { renderReport, reportAssets } from "../../view/render-report.js";
import { serveRunReport } from "../../view/serve-report.js";
import { assertWritableOutput } from "../../core/check-paths.js";
import { waitForStop } from "../wait-for-stop.js";
import type { ViewFlags } from "./view-flags.js";

/** Writes the report (and with --serve serves it until Ctrl-C or SIGTERM); an eval set folder gets its table and every cell's report. */
export async function viewAction(flags: ViewFlags, [runDirectory]: [string]): Promise<void> {
  // Before the output check, which would otherwise report the missing folder as an unwritable report path.
  assertRunDirectoryExists(runDirectory);
  if (isSetDirectory(runDirectory)) {
    writeSetReports(flags, runDirectory);
    return;
  }
  const file = flags.out ?? (flags.serve ? undefined : path.join(runDirectory, "report.html"));
  if (file) assertWritableOutput(flags.out ? "--out" : "<run-dir>", file);
  const { run } = readRunDirectory(runDirectory);
  if (file) {
    const html = renderReport({ kind: "run", run, live: null });
    writeFileSync(file, html);
    console.log(`report → ${file} (${describeSize(html)}; ${run.episodes.length} episodes)`);
  }
  if (!flags.serve) return;
  const server = await serveRunReport(runDirectory, { host: flags.host, port: flags.port });
  console.log(`rllm view on ${server.origin}/ (following ${runDirectory}; Ctrl-C to stop)`);
  await waitForStop((parentPid) => console.error(`rllm: the process that started this report server (pid ${parentPid}) is gone: stopping`));
  await server.close();
}

// The set's table, linking to a report of each cell with episodes (written beside the cell's files).
function writeSetReports(flags: ViewFlags, setDirectory: string): void {
  if (flags.serve) throw new InputError(`${setDirectory} is an eval set: --serve follows one run, so serve a cell's folder (rllm view ${path.join(setDirectory, "<cell>")} --serve)`);
  const file = flags.out ?? path.join(setDirectory, "report.html");
  assertWritableOutput(flags.out ? "--out" : "<run-dir>", file);
  const set = readSetDirectory(setDirectory);
  const cells = set.cells.map(({ row, runDirectory }) => {
    if (runDirectory === null) return { ...row, report: null };
    const cellReport = path.join(runDirectory, "report.html");
    const { run } = readRunDirectory(runDirectory);
    writeFileSync(cellReport, renderReport({ kind: "run", run, live: null }));
    // Relative, so that the set and its reports can be moved or opened from a copy together.
    return { ...row, report: path.relative(path.dirname(path.resolve(file)), path.resolve(cellReport)).split(path.sep).join("/") };
  });
  const html = renderReport({ kind: "set", set: { directory: setDirectory, cells } });
  writeFileSync(file, html);
  console.log(`report → ${file} (${describeSize(html)}; eval set of ${cells.length} cells, ${cells.filter((cell) => cell.report).length} cell reports beside their runs)`);
}

// "812 KB: 96 KB code + 716 KB data".
function describeSize(html: string): string {
  const assets = reportAssets();
  const total = Buffer.byteLength(html);
  const code = Buffer.byteLength(assets.script) + Buffer.byteLength(assets.style);
  const kilobytes = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
  return `${kilobytes(total)}: ${kilobytes(code)} code + ${kilobytes(total - code)} data`;
}
