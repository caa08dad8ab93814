// package.json's allowScripts covers every installed dependency that has an install script, so `npm ci` prints no
// "install-scripts … not yet covered by allowScripts" warnings (npm >= 11.16 reads the field; older npm ignores it).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const npmVersion = execFileSync("npm", ["--version"], { encoding: "utf8" }).trim().split(".").map(Number);
const readsAllowScripts = npmVersion[0]! > 11 || (npmVersion[0] === 11 && npmVersion[1]! >= 16);

describe("allowScripts", () => {
  it.skipIf(!readsAllowScripts)("reviews every installed dependency that has an install script", () => {
    // Read-only: lists the packages whose scripts allowScripts does not cover, and changes nothing.
    const pending = execFileSync("npm", ["approve-scripts", "--allow-scripts-pending"], { cwd: repository, encoding: "utf8" });
    expect(pending.trim()).toBe("No packages with unreviewed install scripts.");
  });
});
