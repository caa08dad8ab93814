// The seccomp filter's assembler for each architecture it knows, and its refusal of any other (no unfiltered runs).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const launcherDirectory = fileURLToPath(new URL("../../../src/sandbox/local/python/", import.meta.url));

/** Runs `code` with the launcher directory importable and returns its stdout. */
function python(code: string): string {
  const result = spawnSync("python3", ["-I", "-S", "-c", `import sys; sys.path.insert(0, ${JSON.stringify(launcherDirectory)})\n${code}`], { encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.trim();
}

describe("seccomp filter", () => {
  it("assembles a whole number of 8-byte BPF instructions for x86-64 and aarch64", () => {
    const sizes = python("import seccomp_filter as f\nprint(len(f.build_filter('x86_64', 7)), len(f.build_filter('aarch64', 7)))");
    const [x86, arm] = sizes.split(" ").map(Number);
    expect(x86! % 8).toBe(0);
    expect(arm! % 8).toBe(0);
    expect(x86).toBeGreaterThan(arm!); // x86-64 adds fork, vfork and the x32 check
  });

  it("refuses an architecture it has no system call numbers for", () => {
    const answer = python("import seccomp_filter as f\ntry:\n    f.build_filter('riscv64', 7)\n    print('built')\nexcept f.SeccompUnavailable as error:\n    print(error)");
    expect(answer).toMatch(/no seccomp filter for architecture riscv64: refusing to run programs unfiltered/);
  });
});
