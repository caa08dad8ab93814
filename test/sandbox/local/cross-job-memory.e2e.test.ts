// One program must not find an earlier job's program, input or output in its own memory. The fork server reads them
// all, and freed memory keeps its bytes: a program forked from it got a copy, and a candidate could read and run the
// other samples' solutions to the same problem, or print their answers, a reward it did not earn. Programs are forked
// from the fork server's template, which never holds a job (zygote.py); before it, this test found an earlier output. A later program here scans what it can read of its memory (the brk heap and the mappings
// around its objects, copying each page through a pipe with write(2), which fails on an unmapped page instead of crashing).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CodeGrader } from "../../../verifiers/code/code-grader.js";
import { normalizeTests } from "../../../verifiers/code/normalize-tests.js";

// Unique per run; the scanner's source holds it only in two halves, and a hit counts only with the text that follows
// it in the earlier job (its own needle, built at run time, is followed by something else).
const tag = randomBytes(6).toString("hex");
const [head, tail] = [`EARLIER_JOB_${tag.slice(0, 6)}`, `${tag.slice(6)}_MARKER`];
const marker = head + tail;

const scanner = `
import ctypes, os
def scan():
    libc = ctypes.CDLL(None)
    libc.write.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
    libc.sbrk.restype = ctypes.c_void_p
    page = 4096
    needle = ${JSON.stringify(head)}.encode() + ${JSON.stringify(tail)}.encode()
    read, write = os.pipe()
    centers = {libc.sbrk(0), id(object()), id("x" * 5000), id(os), ctypes.addressof(ctypes.c_int())}
    seen, hits, scanned = set(), 0, 0
    for center in centers:
        center &= ~(page - 1)
        for offset in range(-(1 << 28), 1 << 28, page):
            start = center + offset
            if start <= 0 or start in seen:
                continue
            seen.add(start)
            # The kernel copies the page into the pipe (or fails on an unmapped one): the scan never reads memory itself,
            # so it cannot crash on a page unmapped between a probe and a read.
            copied = libc.write(write, start, page)
            if copied <= 0:
                continue
            data = os.read(read, page)
            if copied != page:
                continue
            at = data.find(needle)
            while at >= 0:
                if data[at + len(needle):at + len(needle) + 8] == b" earlier":
                    hits += 1
                at = data.find(needle, at + 1)
            scanned += 1
    return [hits, scanned > 1000]
FOUND = scan()
def f(x):
    return FOUND
`;

let grader: CodeGrader;

beforeAll(async () => {
  // One slot, so the scanner is forked from the same fork server right after the earlier jobs.
  grader = await CodeGrader.create({ timeoutSeconds: 30, concurrency: 1 });
});
afterAll(() => grader.close());

describe("a later job's program", () => {
  it("finds no earlier job's program text, stdin, output or returned value in its memory", async () => {
    const padding = `#${"pad".repeat(20_000)}\n`;
    const earlierCall = normalizeTests([{ testtype: "functional", input: "1", output: "2" }], "f");
    const callVerdict = await grader.grade({ program: `def f(x):\n    # ${marker} earlier program\n    return x * 2\n${padding}`, tests: earlierCall.tests, fnName: earlierCall.fnName });
    expect(callVerdict.verdict).toBe("accepted");
    const earlierStdio = normalizeTests([{ testtype: "stdin", input: `${marker} earlier stdin\n${"x".repeat(60_000)}\n`, output: "ok" }], undefined);
    // Its output too: an earlier candidate's printed answer would do a later one as well as its program.
    const printer = `import sys\nsys.stdin.read()\nprint('ok')\nprint(${JSON.stringify(head)} + ${JSON.stringify(tail)} + " earlier output", file=sys.stderr)\nprint("y" * 60000, file=sys.stderr)\n`;
    const stdioVerdict = await grader.grade({ program: printer, tests: earlierStdio.tests, fnName: earlierStdio.fnName });
    expect(stdioVerdict.verdict).toBe("accepted");

    // A returned value goes back through the checker's records, which the fork server relays.
    const earlierValue = normalizeTests([{ testtype: "functional", input: "1", output: JSON.stringify(`${marker} earlier value`) }], "g");
    const valueVerdict = await grader.grade({
      program: `def g(x):\n    return ${JSON.stringify(head)} + ${JSON.stringify(tail)} + " earlier value"\n`,
      tests: earlierValue.tests,
      fnName: earlierValue.fnName,
    });
    expect(valueVerdict.verdict).toBe("accepted");

    const scan = normalizeTests([{ testtype: "functional", input: "1", output: "[0, true]" }], "f");
    const verdict = await grader.grade({ program: scanner, tests: scan.tests, fnName: scan.fnName });
    // [hits, whether it scanned over a thousand pages]: a miss of the scan itself fails too, not only a hit.
    expect(verdict.verdict, JSON.stringify(verdict.tests)).toBe("accepted");
  }, 60_000);
});
