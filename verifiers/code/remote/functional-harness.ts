/**
 * The Python program sent to a remote sandbox for function-call tests. A remote SandboxFusion service has no trusted
 * checker, so the program and the calls share one process; only the tests' arguments are sent, never their expected
 * values, which are compared here: a program that tampers with the harness can still only report values it computed.
 */
import { randomBytes } from "node:crypto";

/**
 * A marker to start each result line of one run, new for each run: a service that answers with result lines it kept
 * from another run, or with a fixed marker, forges nothing. A program printing its own copy of this run's marker makes
 * the run fail (a duplicate index). The service itself sees the marker, and is trusted (docs/code-sandbox.md).
 */
export function newResultMarker(): string {
  return `\u0000rllm-result-${randomBytes(12).toString("hex")}\u0000`;
}

// Loads the program as a module not named __main__ (its `if __name__ == "__main__"` block must not run), then calls
// the function (a method of class Solution for LeetCode-style programs) once per test, one tagged JSON line each. The
// tagging (tuples as lists, dicts as {"$dict": pairs}, big ints as {"$hex"}, other types {"$other"}) is the one the
// local checker reports, so python-value.ts compares both alike.
const harness = String.raw`
import json as _rllm_json, sys as _rllm_sys
def _rllm_main(source, fn_name, marker):
    tests = _rllm_json.loads(_rllm_sys.stdin.buffer.read().decode("utf-8"))
    namespace = {"__name__": "__solution__", "__builtins__": __builtins__}
    exec(compile(source, "<program>", "exec"), namespace)
    solution = namespace.get("Solution")
    target = getattr(solution(), fn_name) if isinstance(solution, type) and hasattr(solution, fn_name) else namespace[fn_name]
    def tag(value):
        kind = type(value)
        if value is None or kind in (bool, str, float):
            return value
        if kind is int:
            return value if -(10 ** 4000) < value < 10 ** 4000 else {"$hex": hex(value)}
        if kind in (list, tuple):
            return [tag(item) for item in value]
        if kind is dict:
            return {"$dict": [[tag(key), tag(item)] for key, item in value.items()]}
        return {"$other": kind.__name__}
    for index, arguments in enumerate(tests):
        try:
            line = "%d v %s" % (index, _rllm_json.dumps(tag(target(*arguments))))
        except BaseException as error:
            line = "%d e %s" % (index, _rllm_json.dumps(type(error).__name__ + ": " + str(error)[:500]))
        _rllm_sys.stdout.write(marker + line + "\n")
        _rllm_sys.stdout.flush()
`;

/** The program text for `program` calling `fnName`, its result lines starting with `marker`; the tests' arguments go in on stdin (see `functionalStdin`). */
export function functionalProgram(program: string, fnName: string, marker: string): string {
  return `${harness}\n_rllm_main(${JSON.stringify(program)}, ${JSON.stringify(fnName)}, ${JSON.stringify(marker)})\n`;
}

/** The stdin of a functional run: each test's arguments (one JSON value per line of its input) as one JSON list. */
export function functionalStdin(inputs: string[]): string {
  return `[${inputs.map((input) => `[${input.split("\n").filter((line) => line.trim() !== "").join(",")}]`).join(",")}]`;
}

/** One result line of the harness. */
export interface HarnessRecord {
  index: number;
  /** The tagged JSON text of the returned value. */
  valueJson?: string;
  error?: string;
}

/** The harness's result lines (after `marker`) in `stdout`, or a reason when the output was tampered with (a duplicate or foreign index). */
export function readHarnessOutput(stdout: string, testCount: number, marker: string): { records: HarnessRecord[] } | { tampered: string } {
  const records: HarnessRecord[] = [];
  const seen = new Set<number>();
  for (const chunk of stdout.split(marker).slice(1)) {
    // "<index> v <tagged JSON>" or "<index> e <JSON string>"; the value stays text, so big integers keep every digit.
    const match = /^(\d+) ([ve]) (.*)$/.exec(chunk.split("\n")[0] ?? "");
    const index = match ? Number(match[1]) : Number.NaN;
    if (!match || index >= testCount || seen.has(index)) return { tampered: `unexpected result line: ${chunk.slice(0, 80)}` };
    seen.add(index);
    if (match[2] === "v") {
      records.push({ index, valueJson: match[3]! });
      continue;
    }
    let error: unknown;
    try {
      error = JSON.parse(match[3]!);
    } catch {
      return { tampered: "an error line is not JSON" };
    }
    records.push({ index, error: String(error) });
  }
  return { records };
}
