/**
 * Harbor parity with the real harbor 0.25.0 (from the pinned `parity` environment): every task folder, the templates
 * that ship inside the harbor package and the fixtures in test/fixtures/harbor-tasks, loads here with the config fields,
 * timeouts, instruction and scripts that Harbor's own models (Task, TaskConfig, TaskPaths) read from it, and a folder
 * Harbor refuses is refused here too.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { loadHarborTask } from "../../../benchmarks/harbor/load-harbor-task.js";
import { terminalTaskOf } from "../../../benchmarks/harbor/terminal-task.js";
import { InputError } from "../../../src/core/errors/input-error.js";
import { pythonEnv } from "../../helpers/python-env.js";

interface HarborView {
  error?: string;
  name: string | null;
  instruction: string;
  agentTimeoutSec: number | null;
  verifierTimeoutSec: number;
  verifierEnv: Record<string, string>;
  buildTimeoutSec: number;
  dockerImage: string | null;
  cpus: number | null;
  memoryMb: number | null;
  env: Record<string, string>;
  workdir: string | null;
  networkMode: "public" | "no-network" | "allowlist";
  solutionEnv: Record<string, string>;
  metadata: Record<string, unknown>;
  testScript: string | null;
  solutionScript: string | null;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.resolve(here, "../../fixtures/harbor-tasks");

/** The fields Harbor read, in this project's TerminalTask terms. */
function expectedTask(folder: string, view: HarborView) {
  return {
    id: view.name ?? path.basename(folder),
    instruction: view.instruction,
    agentTimeoutSec: view.agentTimeoutSec,
    verifierTimeoutSec: view.verifierTimeoutSec,
    verifierEnv: view.verifierEnv,
    buildTimeoutSec: view.buildTimeoutSec,
    image: view.dockerImage ?? undefined,
    cpus: view.cpus ?? undefined,
    memoryMb: view.memoryMb ?? undefined,
    env: view.env,
    allowInternet: view.networkMode === "public",
    solutionEnv: view.solutionEnv,
    taskMetadata: view.metadata,
    testScript: view.testScript,
    solutionScript: view.solutionScript ?? undefined,
  };
}

describe("Harbor task folders against harbor 0.25.0", () => {
  let folders: string[] = [];
  let views: HarborView[] = [];
  let version = "";

  beforeAll(() => {
    const python = pythonEnv("parity");
    const site = spawnSync(python, ["-c", "import harbor, os; print(os.path.dirname(harbor.__file__))"], { encoding: "utf8" }).stdout.trim();
    const shipped = ["cli/template-task", "cli/template-adapter/task-template", "cli/annotator/annotate-task-template", "analyze/analyze-task-template", "analyze/check-task-template"];
    folders = [...shipped.map((folder) => path.join(site, folder)), ...readdirSync(fixtures, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => path.join(fixtures, entry.name))];
    const run = spawnSync(python, [path.join(here, "harbor-task-view.py")], { input: JSON.stringify(folders), encoding: "utf8" });
    if (run.status !== 0) throw new Error(`harbor-task-view.py failed:\n${run.stderr}`);
    ({ tasks: views, harbor: version } = JSON.parse(run.stdout) as { tasks: HarborView[]; harbor: string });
  }, 600_000);

  it("reads every folder with the pinned Harbor, some loaded and some refused", () => {
    expect(version).toBe("0.25.0");
    expect(views).toHaveLength(folders.length);
    expect(views.filter((view) => view.error === undefined).length).toBeGreaterThanOrEqual(5);
    expect(views.filter((view) => view.error !== undefined).length).toBeGreaterThanOrEqual(4);
  });

  it("loads each folder Harbor loads with Harbor's fields, timeouts, instruction and scripts", () => {
    for (const [index, folder] of folders.entries()) {
      const view = views[index]!;
      if (view.error !== undefined) continue;
      const task = loadHarborTask(folder);
      const terminal = terminalTaskOf(task);
      const actual = {
        id: task.id,
        instruction: task.instruction,
        agentTimeoutSec: terminal.agentTimeoutSec,
        verifierTimeoutSec: terminal.verifierTimeoutSec,
        verifierEnv: terminal.verifierEnv,
        buildTimeoutSec: terminal.buildTimeoutSec,
        image: terminal.image,
        cpus: terminal.cpus,
        memoryMb: terminal.memoryMb,
        env: terminal.env,
        allowInternet: terminal.allowInternet,
        solutionEnv: terminal.solutionEnv,
        taskMetadata: task.metadata.taskMetadata,
        testScript: terminal.testScript,
        solutionScript: terminal.solutionScript,
      };
      expect(actual, folder).toEqual(expectedTask(folder, view));
      // Harbor leaves workdir unset unless task.toml sets it; rllm then falls back to the Dockerfile's WORKDIR or /app.
      if (view.workdir !== null) expect(terminal.workdir, folder).toBe(view.workdir);
    }
  });

  it("refuses each folder Harbor refuses", () => {
    for (const [index, folder] of folders.entries()) {
      if (views[index]!.error === undefined) continue;
      expect(() => loadHarborTask(folder), `${folder} (Harbor: ${views[index]!.error})`).toThrow(InputError);
    }
  });
});
