// One sandbox slot runs problem after problem; nothing a run leaves behind (files, environment, patched modules,
// builtins, random state) may be visible to the next one, and the whole sandbox's memory is capped.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CodeGrader } from "../../../verifiers/code/code-grader.js";
import type { TestCase } from "../../../verifiers/code/normalize-tests.js";

// Leaves a trace of every kind it can: files in the working directory and /tmp, the environment, a patched module,
// a builtin, the random state, a module attribute. Each later run prints which traces it sees.
const polluter = `
import builtins, collections, json, os, random
open("state.txt", "w").write("left behind")
os.makedirs("/tmp/nested/deeper", exist_ok=True)
open("/tmp/nested/deeper/state.txt", "w").write("left behind")
os.chmod("/tmp/nested", 0)
os.environ["RLLM_LEFT_BEHIND"] = "1"
json.dumps = lambda *arguments, **keywords: "patched"
builtins.left_behind = True
collections.left_behind = True
random.seed(1234)
print(random.random())
`;
const inspector = `
import builtins, collections, json, os, random
traces = [name for name, present in [
    ("file", os.path.exists("state.txt")),
    ("tmp", os.path.exists("/tmp/nested") or os.path.exists(os.path.join(os.environ.get("TMPDIR", "/tmp"), "nested"))),
    ("environment", "RLLM_LEFT_BEHIND" in os.environ),
    ("json", json.dumps(1) != "1"),
    ("builtins", hasattr(builtins, "left_behind")),
    ("collections", hasattr(collections, "left_behind")),
] if present]
print(traces or "fresh")
print(random.random())
`;
const stdio: TestCase[] = [{ kind: "stdin", input: "", output: "fresh\n" }];
let grader: CodeGrader;

beforeAll(async () => {
  // One slot, so every run below goes through the same fork server.
  grader = await CodeGrader.create({ timeoutSeconds: 5, concurrency: 1 });
});
afterAll(() => grader.close());

describe("state between problems", () => {
  it("leaves no file, environment, module patch or builtin of one problem to the next", async () => {
    await grader.grade({ program: polluter, tests: stdio });
    const verdict = await grader.grade({ program: inspector.replace("print(random.random())", ""), tests: stdio });
    expect(verdict.verdict, verdict.detail).toBe("accepted");
  });

  it("leaves nothing behind from a function-call or assert run either", async () => {
    const assertTests: TestCase[] = [{ kind: "assert", code: "assert touch() == 1\n" }];
    await grader.grade({ program: `${polluter}\ndef touch():\n    open("/tmp/touched", "w").write("x")\n    return 1\n`, tests: assertTests });
    const verdict = await grader.grade({ program: `${inspector.replace("print(random.random())", "")}\nimport os\nassert not os.path.exists("/tmp/touched")\n`, tests: stdio });
    expect(verdict.verdict, verdict.detail).toBe("accepted");
  });

  it("gives each run a fresh random seed, not the fork server's", async () => {
    const program = "import random\nprint(random.random())\n";
    const outputs = new Set<string>();
    for (let run = 0; run < 3; run += 1) {
      const verdict = await grader.grade({ program, tests: [{ kind: "stdin", input: "", output: "x\n" }], fnName: undefined });
      outputs.add(verdict.detail ?? "");
    }
    expect(outputs.size).toBe(3);
  });
});

describe("the interpreter's exit, as a program sees it", () => {
  it("waits for a program's non-daemon threads before its process ends", async () => {
    const program = "import threading, time\ndef late():\n    time.sleep(0.05)\n    print('thread')\nthreading.Thread(target=late).start()\nprint('main')\n";
    const verdict = await grader.grade({ program, tests: [{ kind: "stdin", input: "", output: "main\nthread\n" }] });
    expect(verdict.verdict, verdict.detail).toBe("accepted");
  });

  it("has no threading module loaded before the program imports one (its fork handler would run in every run)", async () => {
    const program = "import sys\nprint('threading' in sys.modules)\n";
    const verdict = await grader.grade({ program, tests: [{ kind: "stdin", input: "", output: "False\n" }] });
    expect(verdict.verdict, verdict.detail).toBe("accepted");
  });
});
