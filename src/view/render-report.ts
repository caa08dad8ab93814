/** One self-contained HTML report: the data, the browser code under client/ and uPlot, all inline; nothing is fetched. */
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { RunComparison } from "./compare-runs.js";
import type { RunCursors, RunData } from "./run-data.js";
import type { SetComparisonRow } from "../core/set-summary.js";

/** An eval set's report: its comparison table, each row with the link to its cell's report (null when the cell has none). */
export interface SetReport {
  directory: string;
  cells: Array<SetComparisonRow & { report: string | null }>;
}

/** What a report shows: one run (live when served by `rllm view --serve`), a comparison of two, or an eval set's table. */
export type ReportPayload =
  | { kind: "run"; run: RunData; live: { cursors: RunCursors } | null }
  | { kind: "compare"; compare: RunComparison }
  | { kind: "set"; set: SetReport };

// Order matters: dom.js defines the helpers the others use, and report-shell.js starts the page once all are defined.
const clientScripts = ["dom.js", "tasks-table.js", "transcript.js", "tournaments.js", "training-charts.js", "compare-page.js", "set-page.js", "report-shell.js"];

/** The parts of a report that do not depend on the run, read once. */
export interface ReportAssets {
  style: string;
  script: string;
}

let cachedAssets: ReportAssets | undefined;

/** The report's CSS and JavaScript: uPlot's bundle and stylesheet, then the files of src/view/client. */
export function reportAssets(): ReportAssets {
  if (cachedAssets) return cachedAssets;
  const require = createRequire(import.meta.url);
  const client = (name: string) => readFileSync(fileURLToPath(new URL(`./client/${name}`, import.meta.url)), "utf8");
  cachedAssets = {
    style: readFileSync(require.resolve("uplot/dist/uPlot.min.css"), "utf8") + "\n" + client("report.css"),
    script: readFileSync(require.resolve("uplot/dist/uPlot.iife.min.js"), "utf8") + "\n" + clientScripts.map(client).join("\n"),
  };
  return cachedAssets;
}

/**
 * The report page. The Content-Security-Policy forbids every fetch but the live view's own updates (`connect-src
 * 'self'`) and images but inline `data:` ones, so a report opened from a file cannot reach a network.
 */
export function renderReport(payload: ReportPayload): string {
  const assets = reportAssets();
  const title =
    payload.kind === "run"
      ? `rllm view · ${payload.run.directory}`
      : payload.kind === "set"
        ? `rllm view · eval set ${payload.set.directory}`
        : `rllm compare · ${payload.compare.a.directory} vs ${payload.compare.b.directory}`;
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'">`,
    `<title>${escapeHtml(title)}</title>`,
    `<style>${assets.style}</style></head>`,
    '<body><div id="app"></div>',
    `<script type="application/octet-stream" id="report-data">${encodePayload(payload)}</script>`,
    `<script>${assets.script}</script>`,
    "</body></html>",
    "",
  ].join("\n");
}

/**
 * The payload as base64 of gzipped JSON, which the page inflates with the browser's own DecompressionStream. Episode
 * JSON repeats itself (prompts, keys) and shrinks about tenfold, and a short text is what the HTML parser is fast on.
 * Base64 has no `<`, so nothing in the data can close the script element.
 */
export function encodePayload(payload: ReportPayload): string {
  return gzipSync(JSON.stringify(payload)).toString("base64");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);
}
