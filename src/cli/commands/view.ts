/** `rllm view <run-dir> [--out report.html] [--serve]`'s action: writes a run's report, or serves it live. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { readRunDirectory } from "../../view/read-run-directory.js";
import { renderReport, reportAssets } from "../../view/render-report.js";
import { serveRunReport } from "../../view/serve-report.js";
import { assertWritableOutput } from "../check-paths.js";
import type { ViewFlags } from "./view-command.js";

/** Writes the report (and with --serve serves it until Ctrl-C or SIGTERM). */
export async function viewAction(flags: ViewFlags, [runDirectory]: [string]): Promise<void> {
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
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
}

// "812 KB: 96 KB code + 716 KB data".
function describeSize(html: string): string {
  const assets = reportAssets();
  const total = Buffer.byteLength(html);
  const code = Buffer.byteLength(assets.script) + Buffer.byteLength(assets.style);
  const kilobytes = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
  return `${kilobytes(total)}: ${kilobytes(code)} code + ${kilobytes(total - code)} data`;
}
