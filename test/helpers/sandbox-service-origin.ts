/** Waits for a started `rllm sandbox serve` to print the address it listens on. */
import type { ChildProcess } from "node:child_process";

/** The service's origin (`http://127.0.0.1:PORT`) from its start-up line; rejects, with its output, if it exits first. */
export function sandboxServiceOrigin(child: ChildProcess): Promise<string> {
  let output = "";
  return new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const match = /rllm sandbox on (http:\/\/[^/\s]+)\/run_code/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) => reject(new Error(`rllm sandbox serve exited ${code}: ${output}`)));
  });
}
