/**
 * The one place that prints an rllm command for the user to type (a resume hint, say), spelt so that it runs as
 * printed from the folder the user is in: `rllm …` only where the shell's `rllm` is this very CLI, `npx rllm …` where
 * that folder's project runs it (this checkout, or a project that depends on rllm-ts), `npx -p rllm-ts rllm …` after
 * a one-off `npx -p rllm-ts`, and `node /path/to/bin/rllm.js …` otherwise.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";

/** How this process was started: its environment, its working folder and the script node ran (process.argv[1]). */
export interface Invocation {
  environment: NodeJS.ProcessEnv;
  cwd: string;
  script: string;
}

/** This process's invocation. */
export function currentInvocation(): Invocation {
  return { environment: process.env, cwd: process.cwd(), script: process.argv[1] ?? "" };
}

/** `args` as a command line the user can paste: the right way to start rllm from here, then each argument shell-quoted. */
export function runnableRllmCommand(args: readonly string[], invocation: Invocation = currentInvocation()): string {
  return [...rllmLauncher(invocation), ...args].map(shellQuote).join(" ");
}

/** The words that start this CLI from the user's shell in `invocation.cwd`. */
export function rllmLauncher(invocation: Invocation): string[] {
  const self = realPath(invocation.script);
  // npx and npm run put node_modules/.bin on this process's PATH, not on the shell's: there `rllm` alone may not exist.
  const startedByNpm = invocation.environment.npm_command !== undefined;
  if (!startedByNpm && commandOnPath("rllm", invocation.environment.PATH) === self) return ["rllm"];
  if (projectRuns(invocation.cwd, self)) return ["npx", "rllm"];
  if (invocation.environment.npm_command === "exec") return ["npx", "-p", "rllm-ts", "rllm"];
  return ["node", self];
}

// Whether `npx rllm` in `folder` runs `self`: npm looks in the nearest project (the closest folder holding a
// package.json) for its node_modules/.bin/rllm, or for the project's own bin when the project is rllm-ts itself.
function projectRuns(folder: string, self: string): boolean {
  for (let current = path.resolve(folder); ; current = path.dirname(current)) {
    const manifest = path.join(current, "package.json");
    if (existsSync(manifest) || existsSync(path.join(current, "node_modules"))) {
      if (realPath(path.join(current, "node_modules", ".bin", "rllm")) === self) return true;
      return isRllmPackage(manifest) && realPath(path.join(current, "bin", "rllm.js")) === self;
    }
    if (path.dirname(current) === current) return false;
  }
}

function isRllmPackage(manifest: string): boolean {
  try {
    return (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === "rllm-ts";
  } catch {
    return false;
  }
}

// The first `name` on `searchPath`, resolved through its links, or undefined.
function commandOnPath(name: string, searchPath = ""): string | undefined {
  for (const folder of searchPath.split(path.delimiter)) {
    if (folder === "") continue;
    const candidate = path.join(folder, name);
    if (existsSync(candidate)) return realPath(candidate);
  }
  return undefined;
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** Single quotes keep a shell from expanding anything; a quote inside is closed, escaped and reopened. */
export function shellQuote(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replace(/'/g, `'\\''`)}'`;
}
