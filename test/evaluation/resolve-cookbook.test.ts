// Finding a cookbook by name or module path, and checking the shape of a user's module.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cookbooks } from "../../cookbooks/registry.js";
import { resolveCookbook } from "../../src/evaluation/resolve-cookbook.js";
import { UnknownNameError } from "../../src/core/errors/unknown-name-error.js";

const folder = mkdtempSync(path.join(os.tmpdir(), "rllm-cookbook-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A user's cookbook module exporting `fields` (plus a name, a flow and an evaluator). */
function userModule(name: string, fields: string): string {
  const file = path.join(folder, `${name}.mjs`);
  writeFileSync(file, `export default { name: "${name}", flow: async () => ({}), evaluate: () => ({}), ${fields} };\n`);
  return file;
}

describe("resolveCookbook", () => {
  it("refuses an unknown built-in name, listing the built-in ones and the module-path way", async () => {
    await expect(resolveCookbook("maths")).rejects.toThrow(UnknownNameError);
    await expect(resolveCookbook("maths")).rejects.toThrow(`unknown cookbook "maths"; available: ${cookbooks.names().join(", ")}; or give a module path`);
    expect(cookbooks.names()).toEqual(expect.arrayContaining(["arith", "math", "deepcoder", "evalplus", "multiple-choice"]));
  });

  it("accepts a user's cookbook with options and configure", async () => {
    const file = userModule("with-options", 'optionsSchema: { shape: { depth: {} }, safeParse: () => ({ success: true, data: {} }) }, configure() { return this; }');
    expect((await resolveCookbook(file)).name).toBe("with-options");
  });

  it("refuses a user's cookbook with options but no configure", async () => {
    const file = userModule("options-only", "optionsSchema: { shape: {}, safeParse: () => ({ success: true, data: {} }) }");
    await expect(resolveCookbook(file)).rejects.toThrow(/field "configure": optionsSchema and configure go together/);
  });
});
