/** The live view: a run's report served on a local port, whose page polls for the lines appended since it loaded. */
import { HttpError } from "../http/http-error.js";
import { sendJson } from "../http/send-json.js";
import { requestPath, startHttpServer, type RunningHttpServer } from "../http/start-http-server.js";
import type { LineCursor } from "../runs/read-appended-lines.js";
import { readRunDirectory, readRunUpdate } from "./read-run-directory.js";
import { renderReport } from "./render-report.js";

/**
 * Serves `GET /` (the report as the run stands, with the cursors it was read up to) and `GET /updates?episodes=
 * <offset>:<line>&metrics=<offset>:<line>` (what was appended past those cursors). The page holds its cursors, so
 * the server keeps no state and any number of pages can follow one run.
 */
export function serveRunReport(directory: string, options: { host: string; port: number }): Promise<RunningHttpServer> {
  return startHttpServer(async (request, response) => {
    if (request.method !== "GET") throw new HttpError(405, `${request.method} is not served: the report is read-only`);
    const route = requestPath(request);
    if (route === "") {
      const { run, cursors } = readRunDirectory(directory);
      const html = renderReport({ kind: "run", run, live: { cursors } });
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": String(Buffer.byteLength(html)), "cache-control": "no-store" });
      response.end(html);
      return;
    }
    if (route === "/updates") {
      const query = new URL(request.url ?? "/", "http://localhost").searchParams;
      const cursors = { episodes: parseCursor(query.get("episodes"), "episodes"), metrics: parseCursor(query.get("metrics"), "metrics") };
      sendJson(response, 200, readRunUpdate(directory, cursors), { "cache-control": "no-store" });
      return;
    }
    throw new HttpError(404, `${route}: not found (the report is at /, its updates at /updates)`);
  }, options);
}

function parseCursor(text: string | null, name: string): LineCursor {
  const match = /^(\d+):(\d+)$/.exec(text ?? "");
  if (!match) throw new HttpError(400, `query parameter ${name} must be <offset>:<line>, got ${JSON.stringify(text)}`, "invalid_request_error", name);
  return { offset: Number(match[1]), line: Number(match[2]) };
}
