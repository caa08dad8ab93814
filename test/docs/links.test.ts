// Every relative markdown link in the README, CONTRIBUTING.md, docs/ and the cookbook READMEs points at a file or
// folder that exists, so a page moved or renamed during a restructure cannot leave a dead link behind.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** The markdown files whose links are checked, relative to the repository root. */
function documentationFiles(): string[] {
  const docs = readdirSync(path.join(root, "docs"), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => path.join("docs", name));
  const cookbooks = readdirSync(path.join(root, "cookbooks"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(root, "cookbooks", entry.name, "README.md")))
    .map((entry) => path.join("cookbooks", entry.name, "README.md"));
  return ["README.md", "CONTRIBUTING.md", ...docs, ...cookbooks];
}

/** The targets of `[text](target)` and `![alt](target)` links outside fenced code, without their `#anchor`. */
function relativeLinkTargets(markdown: string): string[] {
  // Fenced blocks hold shell commands and code, where `[a](b)` is not a link.
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  const targets: string[] = [];
  for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1] ?? "";
    if (/^[a-z][a-z+.-]*:/i.test(target) || target.startsWith("#")) continue; // https:, mailto:, in-page anchors
    targets.push(decodeURIComponent(target.split("#")[0] ?? ""));
  }
  return targets;
}

/** Links of `file` (relative to the root) whose target does not exist, as `file: target`. */
function brokenLinks(file: string, markdown: string): string[] {
  return relativeLinkTargets(markdown)
    .filter((target) => !existsSync(path.resolve(root, path.dirname(file), target)))
    .map((target) => `${file}: ${target}`);
}

describe("documentation links", () => {
  it("finds the pages to check: the README, CONTRIBUTING.md, docs/ and the cookbook READMEs", () => {
    const files = documentationFiles();
    expect(files).toContain("README.md");
    expect(files).toContain("CONTRIBUTING.md");
    expect(files).toContain(path.join("cookbooks", "finqa", "README.md"));
    expect(files.filter((file) => file.startsWith(`docs${path.sep}`)).length).toBeGreaterThan(5);
  });

  it("resolves every relative link to an existing file or folder", () => {
    const broken = documentationFiles().flatMap((file) => brokenLinks(file, readFileSync(path.join(root, file), "utf8")));
    expect(broken).toEqual([]);
  });

  it("reports a link whose target is missing, and ignores URLs, anchors and fenced code", () => {
    const markdown = [
      "[ok](docs/concepts.md#the-score-contract) [gone](docs/no-such-page.md) [web](https://example.com/x.md)",
      "[here](#section) ![image](docs/missing.png)",
      "```",
      "[in code](docs/also-missing.md)",
      "```",
    ].join("\n");
    expect(brokenLinks("README.md", markdown)).toEqual(["README.md: docs/no-such-page.md", "README.md: docs/missing.png"]);
  });
});
