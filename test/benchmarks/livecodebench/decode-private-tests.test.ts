import { deflateSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodePrivateTests, PrivateTestsError, unpickleString } from "../../../benchmarks/livecodebench/decode-private-tests.js";
import { livecodebenchRow } from "../../../benchmarks/livecodebench/livecodebench-row.js";
import { releaseWindow } from "../../../benchmarks/livecodebench/release-window.js";

// Question 1873_A of code_generation_lite's test.jsonl (test/fixtures/benchmarks/livecodebench-1873_A.json).
const recorded = JSON.parse(readFileSync("test/fixtures/benchmarks/livecodebench-1873_A.json", "utf8")) as Record<string, string>;
const encode = (pickle: Buffer) => deflateSync(pickle).toString("base64");

describe("decodePrivateTests", () => {
  it("decodes a real row's base64 + zlib + pickled JSON string into its four stdin tests", () => {
    const tests = decodePrivateTests(recorded.private_test_cases!) as { input: string; output: string; testtype: string }[];
    expect(tests).toHaveLength(4);
    expect(tests[0]).toEqual({ input: "1\nabc\n", output: "YES\n", testtype: "stdin" });
  });

  it("takes private tests that are plain JSON as they are", () => {
    expect(decodePrivateTests('[{"input": "1", "output": "2", "testtype": "stdin"}]')).toHaveLength(1);
  });

  it("reads the short and the 8-byte string opcodes", () => {
    // protocol 4, SHORT_BINUNICODE "[]", MEMOIZE, STOP
    expect(unpickleString(Buffer.from([0x80, 0x04, 0x8c, 0x02, 0x5b, 0x5d, 0x94, 0x2e]))).toBe("[]");
    const long = Buffer.concat([Buffer.from([0x80, 0x05, 0x8d]), Buffer.from([2, 0, 0, 0, 0, 0, 0, 0]), Buffer.from("[]"), Buffer.from([0x2e])]);
    expect(unpickleString(long)).toBe("[]");
  });

  it("refuses a pickle that would call a function (os.system), naming the opcode, and never runs it", () => {
    // pickle.dumps of an object whose __reduce__ is (os.system, ("touch /tmp/pwned",)), protocol 0: GLOBAL 'posix system'.
    const malicious = Buffer.from("cposix\nsystem\np0\n(Vtouch /tmp/pwned\np1\ntp2\nRp3\n.", "latin1");
    expect(() => decodePrivateTests(encode(malicious))).toThrow(PrivateTestsError);
    expect(() => decodePrivateTests(encode(malicious))).toThrow(/refused pickle opcode 0x63 at byte 0: only a pickled str is accepted/);
    // The same with protocol 4's STACK_GLOBAL after two strings.
    const stackGlobal = Buffer.from([0x80, 0x04, 0x8c, 0x05, ...Buffer.from("posix"), 0x8c, 0x06, ...Buffer.from("system"), 0x93, 0x2e]);
    expect(() => unpickleString(stackGlobal)).toThrow(/more than one value/);
  });

  it("refuses a value that is not a str, a second value, trailing bytes and a cut pickle", () => {
    expect(() => unpickleString(Buffer.from([0x80, 0x04, 0x4b, 0x01, 0x2e]))).toThrow(/refused pickle opcode 0x4b/); // BININT1
    expect(() => unpickleString(Buffer.from([0x8c, 0x01, 0x61, 0x8c, 0x01, 0x62, 0x2e]))).toThrow(/more than one value/);
    expect(() => unpickleString(Buffer.from([0x8c, 0x01, 0x61, 0x2e, 0x2e]))).toThrow(/bytes after the pickle's STOP/);
    expect(() => unpickleString(Buffer.from([0x58, 0xff, 0xff, 0x00, 0x00, 0x61]))).toThrow(/ends early/);
    expect(() => unpickleString(Buffer.from([0x8c, 0x01, 0x61]))).toThrow(/no STOP/);
    expect(() => decodePrivateTests("not base64 !!")).toThrow(/neither JSON nor base64/);
  });
});

describe("livecodebenchRow and the release window", () => {
  it("turns a real code_generation_lite row into public then private stdin tests of release 1", () => {
    const row = livecodebenchRow(recorded, "test.jsonl");
    expect(row).toMatchObject({ id: "1873_A", fn_name: null, platform: "codeforces", release: 1, contest_date: "2023-08-21T00:00:00" });
    expect(row.tests).toHaveLength(5);
    expect(livecodebenchRow(recorded, "test5.jsonl").release).toBe(5);
  });

  it("names the field of a row in another shape", () => {
    expect(() => livecodebenchRow({ ...recorded, metadata: "{not json" }, "test.jsonl")).toThrow(/field "metadata": not JSON/);
    expect(() => livecodebenchRow({ ...recorded, question_content: undefined }, "test.jsonl")).toThrow(/field "question_content"/);
  });

  it("keeps rows by release and by contest date, and refuses another split name", () => {
    const rows = [
      { release: 1, contest_date: "2023-08-21T00:00:00" },
      { release: 5, contest_date: "2024-12-01T00:00:00" },
      { release: 6, contest_date: "2025-03-02T00:00:00" },
    ];
    expect(rows.filter(releaseWindow("release_v5")).map((row) => row.release)).toEqual([1, 5]);
    expect(rows.filter(releaseWindow("2024-08-01..2025-02-01")).map((row) => row.release)).toEqual([5]);
    expect(rows.filter(releaseWindow("2025-01-01..")).map((row) => row.release)).toEqual([6]);
    expect(rows.filter(releaseWindow("test"))).toHaveLength(3);
    expect(() => releaseWindow("validation")).toThrow(/--split validation: livecodebench takes test, release_v<n>/);
  });
});
