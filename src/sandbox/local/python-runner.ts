/** The Python runner: a fork server (python/zygote.py) that forks each run, installs its limits and seccomp filter, then loads the program. */
import { packagePath } from "../../core/package-root.js";
import type { LanguageRunner } from "./language-runner.js";

const launcherDirectory = "/sandbox/rllm";

export const pythonRunner: LanguageRunner = {
  language: "python",
  mounts: [{ source: packagePath("src", "sandbox", "local", "python"), destination: launcherDirectory }],
  // -S: no site.py (the zygote adds site-packages itself, without running .pth files); -I: no env, no user site.
  argv: (host, config) => [
    host.python.executable,
    "-I",
    "-S",
    "-B",
    `${launcherDirectory}/zygote.py`,
    JSON.stringify({
      scratch: config.scratch,
      memory_bytes: config.memoryBytes,
      file_bytes: config.fileBytes,
      open_files: config.openFiles,
      processes: config.processes,
      site_packages: host.python.sitePackages,
      slot: config.slot,
    }),
  ],
  // Matches DENIED_EXIT_CODE in python/program_host.py.
  deniedExitCode: 86,
};
