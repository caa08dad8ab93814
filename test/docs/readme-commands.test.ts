// README's command table names every rllm subcommand that `rllm --help` lists, so a new user finds each one there.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { commands } from "../../src/cli/commands/index.js";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const table = readme.slice(readme.indexOf("## Commands"), readme.indexOf("\n## ", readme.indexOf("## Commands") + 1));
// Each row's first cell: the command (or two, as in `rllm view … / rllm compare …`).
const commandCells = table
  .split("\n")
  .filter((line) => line.startsWith("| `rllm"))
  .map((line) => line.split(" | ")[0]!);

describe("README's command table", () => {
  it.each(commands.names())("has a row for rllm %s", (name) => {
    expect(commandCells.some((cell) => new RegExp(`\`rllm ${name}\\b`).test(cell))).toBe(true);
  });
});
