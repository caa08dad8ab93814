// The rllm command printed for the user to type (a resume hint) runs as printed from where the user is.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runnableRllmCommand } from "../../src/cli/runnable-rllm-command.js";

const root = mkdtempSync(path.join(os.tmpdir(), "rllm-runnable-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder tree under `root`: each path ending in "/" is a folder, anything else a file with `content`. */
function makeTree(paths: Record<string, string>): void {
  for (const [relative, content] of Object.entries(paths)) {
    const target = path.join(root, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

// An installed package (global or a project's), a checkout of rllm-ts, a project depending on it, and a bare folder.
makeTree({
  "global/lib/node_modules/rllm-ts/bin/rllm.js": "",
  "checkout/package.json": JSON.stringify({ name: "rllm-ts" }),
  "checkout/bin/rllm.js": "",
  "checkout/src/cli/main.ts": "",
  "project/package.json": JSON.stringify({ name: "mine" }),
  "project/node_modules/rllm-ts/bin/rllm.js": "",
  "project/src/.keep": "",
  "elsewhere/.keep": "",
});
mkdirSync(path.join(root, "global/bin"));
symlinkSync(path.join(root, "global/lib/node_modules/rllm-ts/bin/rllm.js"), path.join(root, "global/bin/rllm"));
mkdirSync(path.join(root, "project/node_modules/.bin"));
symlinkSync("../rllm-ts/bin/rllm.js", path.join(root, "project/node_modules/.bin/rllm"));

const at = (folder: string) => path.join(root, folder);
const args = ["eval", "arith", "--out", "runs/a b", "--resume"];

describe("runnableRllmCommand", () => {
  it("says rllm where the shell's rllm is this CLI (a global install), whatever the folder", () => {
    const invocation = { environment: { PATH: `/usr/bin:${at("global/bin")}` }, cwd: at("elsewhere"), script: at("global/bin/rllm") };
    expect(runnableRllmCommand(args, invocation)).toBe("rllm eval arith --out 'runs/a b' --resume");
  });

  it("says npx rllm in a checkout, from any of its folders, where no rllm is on the shell's path", () => {
    for (const cwd of [at("checkout"), at("checkout/src/cli")]) {
      const invocation = { environment: { PATH: "/usr/bin" }, cwd, script: at("checkout/bin/rllm.js") };
      expect(runnableRllmCommand(args, invocation)).toBe("npx rllm eval arith --out 'runs/a b' --resume");
    }
  });

  it("says npx rllm when npx started it in a project that depends on rllm-ts, though npx put rllm on this process's path", () => {
    const environment = { PATH: `${at("project/node_modules/.bin")}:/usr/bin`, npm_command: "exec" };
    const invocation = { environment, cwd: at("project/src"), script: at("project/node_modules/.bin/rllm") };
    expect(runnableRllmCommand(args, invocation)).toBe("npx rllm eval arith --out 'runs/a b' --resume");
  });

  it("says npx -p rllm-ts rllm after a one-off npx -p rllm-ts outside any project that has it", () => {
    const invocation = { environment: { PATH: "/usr/bin", npm_command: "exec" }, cwd: at("elsewhere"), script: at("global/lib/node_modules/rllm-ts/bin/rllm.js") };
    expect(runnableRllmCommand(args, invocation)).toBe("npx -p rllm-ts rllm eval arith --out 'runs/a b' --resume");
  });

  it("names node and the script where nothing else would start this CLI (a checkout's bin run from another folder)", () => {
    const invocation = { environment: { PATH: "/usr/bin" }, cwd: at("elsewhere"), script: at("checkout/bin/rllm.js") };
    expect(runnableRllmCommand(["eval", "it's"], invocation)).toBe(`node ${at("checkout/bin/rllm.js")} eval 'it'\\''s'`);
  });

  it("does not say npx rllm in a project whose rllm is another package's", () => {
    const invocation = { environment: { PATH: "/usr/bin" }, cwd: at("project"), script: at("checkout/bin/rllm.js") };
    expect(runnableRllmCommand(["eval"], invocation)).toBe(`node ${at("checkout/bin/rllm.js")} eval`);
  });
});
