import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { packagePath } from "../../../src/core/package-root.js";
import { capabilitiesMatrix } from "../../../src/training/backends/capabilities-matrix.js";

describe("rllm train --capabilities", () => {
  it("is the table docs/backends.md shows", async () => {
    const docs = readFileSync(packagePath("docs", "backends.md"), "utf8");
    const shown = docs.split("<!-- capabilities-matrix:start -->\n")[1]!.split("\n<!-- capabilities-matrix:end -->")[0];
    expect(shown).toBe(await capabilitiesMatrix());
  });
});
