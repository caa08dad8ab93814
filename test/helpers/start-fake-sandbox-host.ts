/** Starts test/helpers/fake-sandbox-host.ts in its own process and waits for the URL it listens on. */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("./fake-sandbox-host.ts", import.meta.url));

/** A running fake host: its URL and its process (kill it when done). */
export interface FakeSandboxHost {
  url: string;
  child: ChildProcess;
}

/** Starts a fake host with `behaviour` (see fake-sandbox-host.ts); rejects, with its output, if it exits first. */
export function startFakeSandboxHost(behaviour: Record<string, unknown>): Promise<FakeSandboxHost> {
  const child = spawn(process.execPath, ["--import", "tsx", script, JSON.stringify(behaviour)], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const match = /fake sandbox host on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ url: match[1]!, child });
    });
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) => reject(new Error(`fake sandbox host exited ${code}: ${output}`)));
  });
}
