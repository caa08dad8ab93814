/** The Python runner: a trusted launcher (python/launcher.py) reads a header from stdin, guards process creation, and runs the program. */
import { packagePath } from "../../src/core/package-root.js";
import type { LanguageRunner, RunJob } from "./language-runner.js";

const launcherDirectory = "/sandbox/rllm";

export const pythonRunner: LanguageRunner = {
  language: "python",
  mounts: [{ source: packagePath("verifiers", "code", "python"), destination: launcherDirectory }],
  // -S: no site.py (the launcher adds site-packages itself, without running .pth files); -I: no env, no user site.
  argv: (host) => [host.python.executable, "-I", "-S", "-B", `${launcherDirectory}/launcher.py`, ...host.python.sitePackages],
  encodeStdin(job: RunJob): Buffer {
    const fields: [string, string][] = [
      ["mode", job.mode],
      ["program", job.program],
      ...(job.fnName !== undefined ? [["fn_name", job.fnName] as [string, string]] : []),
      ...(job.nonce !== undefined ? [["nonce", job.nonce] as [string, string]] : []),
      ...(job.inputs ?? []).map((input): [string, string] => ["input", input]),
      ...(job.asserts ?? []).map((code): [string, string] => ["assert", code]),
    ];
    // "<name> <byte length>\n<bytes>" per field, then "end 0\n", then the program's own stdin (python/launcher.py reads it).
    const parts = fields.flatMap(([name, value]) => {
      const bytes = Buffer.from(value, "utf8");
      return [Buffer.from(`${name} ${bytes.length}\n`), bytes];
    });
    return Buffer.concat([...parts, Buffer.from("end 0\n"), Buffer.from(job.stdin ?? "", "utf8")]);
  },
  // Matches DENIED_EXIT_CODE in python/launcher.py.
  deniedExitCode: 86,
};
