// Every relative markdown link in the README, CONTRIBUTING.md, docs/ and the cookbook READMEs points at a file or
// folder that exists, and every #anchor at a heading of its page, so a page or heading moved or renamed during a
// restructure cannot leave a dead link behind.
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

/** Markdown with its fenced code blocks removed: there `[a](b)` is not a link and `# x` is not a heading. */
function withoutFencedCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "");
}

/** The `[text](target)` and `![alt](target)` links outside fenced code that are not URLs, as `{file, anchor}`. */
function relativeLinks(markdown: string): { file: string; anchor?: string }[] {
  const links: { file: string; anchor?: string }[] = [];
  for (const match of withoutFencedCode(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1] ?? "";
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
    const [file = "", anchor] = target.split("#");
    links.push({ file: decodeURIComponent(file), ...(anchor ? { anchor } : {}) });
  }
  return links;
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFencedCode(markdown).matchAll(/^#{1,6}\s+(.*)$/gm)) {
    const slug = (match[1] ?? "").trim().toLowerCase().replace(/[^\p{L}\p{N}\p{M}_\s-]/gu, "").replace(/\s/g, "-");
    const count = seen.get(slug);
    anchors.add(count === undefined ? slug : `${slug}-${count + 1}`);
    seen.set(slug, (count ?? -1) + 1);
  }
  return anchors;
}

/** Links of `file` (relative to the root) whose target or heading anchor does not exist, as `file: target`. */
function brokenLinks(file: string, markdown: string): string[] {
  return relativeLinks(markdown).flatMap((link) => {
    const targetFile = link.file === "" ? file : path.normalize(path.join(path.dirname(file), link.file));
    const shown = `${file}: ${link.file}${link.anchor ? `#${link.anchor}` : ""}`;
    if (link.file !== "" && !existsSync(path.join(root, targetFile))) return [shown];
    if (link.anchor === undefined || !targetFile.endsWith(".md")) return [];
    const page = link.file === "" ? markdown : readRepositoryFile(targetFile);
    return headingAnchors(page).has(link.anchor) ? [] : [shown];
  });
}

/** A file of the repository, by its path from the root. */
function readRepositoryFile(file: string): string {
  return readFileSync(path.join(root, file), "utf8");
}

describe("documentation links", () => {
  it("finds the pages to check: the README, CONTRIBUTING.md, docs/ and the cookbook READMEs", () => {
    const files = documentationFiles();
    expect(files).toContain("README.md");
    expect(files).toContain("CONTRIBUTING.md");
    expect(files).toContain(path.join("cookbooks", "finqa", "README.md"));
    expect(files.filter((file) => file.startsWith(`docs${path.sep}`)).length).toBeGreaterThan(5);
  });

  it("resolves every relative link to an existing file or folder, and every anchor to a heading of its page", () => {
    const broken = documentationFiles().flatMap((file) => brokenLinks(file, readRepositoryFile(file)));
    expect(broken).toEqual([]);
  });

  it("reports a link whose target or heading is missing, and ignores URLs and fenced code", () => {
    const markdown = [
      "# Quick start",
      "[ok](docs/concepts.md#the-score-contract) [gone](docs/no-such-page.md) [web](https://example.com/x.md)",
      "[here](#quick-start) [nowhere](#no-such-heading) ![image](docs/missing.png)",
      "[bad anchor](docs/concepts.md#no-such-heading)",
      "```",
      "[in code](docs/also-missing.md)",
      "```",
    ].join("\n");
    expect(brokenLinks("README.md", markdown)).toEqual([
      "README.md: docs/no-such-page.md",
      "README.md: #no-such-heading",
      "README.md: docs/missing.png",
      "README.md: docs/concepts.md#no-such-heading",
    ]);
  });

  it("names heading anchors as GitHub does", () => {
    const page = "# `rllm eval --rerank`\n## Joint rewards (V1-PairRL, `src/training/joint-reward.ts`)\n## Data\n## Data\n";
    expect([...headingAnchors(page)]).toEqual([
      "rllm-eval---rerank",
      "joint-rewards-v1-pairrl-srctrainingjoint-rewardts",
      "data",
      "data-1",
    ]);
  });
});
