/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per package or source folder, self time per
 * function and inclusive time per function, so a profile reads as "where the time goes" without a browser.
 * Usage: node --import tsx test/perf/summarize-cpu-profile.ts <file.cpuprofile> [rows per table].
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, rowsArgument] = process.argv.slice(2);
if (!file) throw new Error("usage: summarize-cpu-profile.ts <file.cpuprofile> [rows per table]");
const rows = Number(rowsArgument ?? 40);
const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));

// Self time per node: each sample's delta goes to the node that was on top of the stack.
const selfMicroseconds = new Map<number, number>();
for (const [index, id] of profile.samples.entries()) selfMicroseconds.set(id, (selfMicroseconds.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
const total = [...selfMicroseconds.values()].reduce((sum, value) => sum + value, 0);

/** Where a frame's code lives: an npm package, a node: builtin, a folder of ours, or V8 itself. */
function area({ url, functionName }: ProfileNode["callFrame"]): string {
  if (url === "") return `(${functionName || "native"})`;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1]!;
  if (url.startsWith("node:")) return url.replace(/^node:(internal\/)?/, "node:").split("/").slice(0, 2).join("/");
  const ours = /\/(src|cookbooks|test)\/(.*)\/[^/]+$/.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

/** A function as "name path:line", the path cut to start at node_modules/, src/, cookbooks/ or test/. */
function functionKey({ functionName, url, lineNumber }: ProfileNode["callFrame"]): string {
  return `${functionName || "(anonymous)"} ${url.replace(/^.*\/(node_modules|src|cookbooks|test)\//, "$1/")}:${lineNumber + 1}`;
}

const byArea = new Map<string, number>();
const byFunction = new Map<string, number>();
const add = (table: Map<string, number>, key: string, microseconds: number) => table.set(key, (table.get(key) ?? 0) + microseconds);
for (const [id, microseconds] of selfMicroseconds) {
  const { callFrame } = byId.get(id)!;
  add(byArea, area(callFrame), microseconds);
  add(byFunction, functionKey(callFrame), microseconds);
}

// Inclusive time: a node's self time plus its subtree's, counted at the outermost frame of each function on a stack
// so that recursion is not counted twice.
const inclusive = new Map<string, number>();
function walk(node: ProfileNode, open: Set<string>): number {
  const key = functionKey(node.callFrame);
  const isOutermost = !open.has(key);
  if (isOutermost) open.add(key);
  let sum = selfMicroseconds.get(node.id) ?? 0;
  for (const child of node.children ?? []) sum += walk(byId.get(child)!, open);
  if (isOutermost) {
    open.delete(key);
    add(inclusive, key, sum);
  }
  return sum;
}
walk(profile.nodes[0]!, new Set());

function print(title: string, table: Map<string, number>): void {
  console.log(`\n${title}`);
  for (const [key, microseconds] of [...table].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${((100 * microseconds) / total).toFixed(1).padStart(5)}%  ${(microseconds / 1000).toFixed(0).padStart(6)} ms  ${key}`);
  }
}
console.log(`${(total / 1000).toFixed(0)} ms sampled`);
print("self time by area", byArea);
print("self time by function", byFunction);
print("inclusive time by function", inclusive);
