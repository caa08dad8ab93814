import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTerminalTasks } from "../../../benchmarks/harbor/load-terminal-tasks.js";
import { stripCanary, terminalTaskOf } from "../../../benchmarks/harbor/terminal-task.js";
import { packagePath } from "../../../src/core/package-root.js";

const sample = packagePath("benchmarks/terminal-sample/tasks");
const scratch = mkdtempSync(path.join(tmpdir(), "rllm-harbor-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes `files` (path → text) under a new folder and returns it. */
function folder(name: string, files: Record<string, string>): string {
  const root = path.join(scratch, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe("loadTerminalTasks", () => {
  it("loads the 13 bundled tasks from rLLM's dataset.toml, each with an oracle solution and tests", () => {
    const tasks = loadTerminalTasks(sample);
    expect(tasks).toHaveLength(13);
    for (const task of tasks) {
      const terminal = terminalTaskOf(task);
      expect(terminal.solutionScript).toBeDefined();
      expect(terminal.warnings).toEqual([]);
    }
  });

  it("strips the canary comment from instruction.md and reads task.toml's sections", () => {
    const task = loadTerminalTasks(path.join(sample, "hello-file"))[0]!;
    expect(task.id).toBe("rllm/hello-file");
    expect(task.instruction).toMatch(/^Create the file `\/app\/hello.txt`/);
    expect(terminalTaskOf(task)).toMatchObject({ format: "harbor", agentTimeoutSec: 120, verifierTimeoutSec: 60, workdir: "/app", allowInternet: false, cpus: 1, memoryMb: 512 });
  });

  it("maps a Terminal-Bench v1 task.yaml as Harbor's migration does", () => {
    const task = loadTerminalTasks(path.join(sample, "countdown-tbv1"))[0]!;
    expect(terminalTaskOf(task)).toMatchObject({
      format: "terminal-bench-v1",
      agentTimeoutSec: 120,
      verifierTimeoutSec: 60,
      testScript: "run-tests.sh",
      solutionScript: "solution.sh",
      verifierEnv: { TEST_DIR: "/tests" },
      workdir: "/app",
      hasDockerfile: true,
    });
  });

  it("uses Terminal-Bench v1's defaults (360 s agent, 60 s tests) and warns about fields it does not honour", () => {
    const root = folder("tb-defaults", {
      "task.yaml": "instruction: do it\nparser_name: swebench\nrun_tests_in_same_shell: true\nmystery: 1\n",
      "run-tests.sh": "exit 0\n",
      "docker-compose.yaml": "services:\n  client:\n    build: .\n",
    });
    const terminal = terminalTaskOf(loadTerminalTasks(root)[0]!);
    expect(terminal).toMatchObject({ agentTimeoutSec: 360, verifierTimeoutSec: 60 });
    expect(terminal.warnings.join("\n")).toMatch(/mystery is not supported/);
    expect(terminal.warnings.join("\n")).toMatch(/parser_name swebench/);
    expect(terminal.warnings.join("\n")).toMatch(/run_tests_in_same_shell/);
    expect(terminal.warnings.join("\n")).toMatch(/docker-compose\.yaml: docker compose files are not used/);
  });

  it("lists every task.toml field it does not support, never dropping one silently", () => {
    const root = folder("unsupported", {
      "task.toml": '[agent]\ntimeout_sec = 5\nuser = "root"\n[environment]\nmemory = "1G"\ngpus = 1\nhealthcheck = { command = "true" }\n[verifier]\nenvironment_mode = "separate"\n[[steps]]\nname = "a"\n',
      "instruction.md": "x",
      "tests/test.sh": "echo 1 > /logs/verifier/reward.txt\n",
      "environment/Dockerfile": "FROM ubuntu:24.04\nWORKDIR /srv\nRUN apt-get update\n",
      "environment/docker-compose.yaml": "services: {}\n",
    });
    const terminal = terminalTaskOf(loadTerminalTasks(root)[0]!);
    expect(terminal).toMatchObject({ memoryMb: 1024, workdir: "/srv", agentTimeoutSec: 5, verifierTimeoutSec: 600, allowInternet: true, hasDockerfile: true });
    const warnings = terminal.warnings.join("\n");
    for (const field of ["steps", "[environment].healthcheck", "[verifier].environment_mode", "[environment].gpus", "RUN/COPY/ADD", "docker compose files are not used", "[agent].user = root is not honoured"]) expect(warnings).toContain(field);
  });

  it("resolves a Harbor manifest dataset.toml's tasks by name to folders beside it", () => {
    const root = folder("manifest", {
      "dataset.toml": '[dataset]\nname = "org/set"\n[[tasks]]\nname = "org/one"\ndigest = "sha256:00"\n',
      "one/task.toml": "",
      "one/instruction.md": "first",
      "one/tests/test.sh": "true\n",
      "two/task.toml": "",
      "two/instruction.md": "not in the manifest",
      "two/tests/test.sh": "true\n",
    });
    expect(loadTerminalTasks(root).map((task) => task.instruction)).toEqual(["first"]);
  });

  it("names the manifest entry whose folder is missing", () => {
    const root = folder("manifest-missing", { "dataset.toml": '[dataset]\nname = "org/set"\n[[tasks]]\nname = "org/gone"\ndigest = "sha256:00"\n' });
    expect(() => loadTerminalTasks(root)).toThrow(/tasks\[0\] org\/gone: no folder/);
  });

  it("keeps Harbor's canary rule: only leading comment lines that mention canary go", () => {
    expect(stripCanary("# BENCHMARK DATA canary GUID x\n\n\nDo this.\n# canary later stays")).toBe("Do this.\n# canary later stays");
    expect(stripCanary("Do this.\n<!-- canary -->")).toBe("Do this.\n<!-- canary -->");
  });
});
