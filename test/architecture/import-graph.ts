/**
 * Reads the imports of every TypeScript file under some folders (relative ones, and the package's own entries such as
 * `rllm-ts/core`), and checks them against a table of layers and the rule that plugins use only the public entries.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * One import: the importing file and the file it names, both relative to the repository root with `/` separators.
 * `entry` is the package entry the import named (`rllm-ts/core`), absent for a relative import.
 */
export interface ImportEdge {
  from: string;
  to: string;
  entry?: string;
}

/** The package's entries by import name (`rllm-ts/core`), each with its source file relative to the repository root. */
export type PackageEntries = ReadonlyMap<string, string>;

/** The entries tsconfig.json's `paths` map to the sources: the names a file in the checkout may import the package by. */
export function readPackageEntries(root: string): PackageEntries {
  const file = path.join(root, "tsconfig.json");
  const { config, error } = ts.readConfigFile(file, ts.sys.readFile);
  if (error) throw new Error(`${file}: ${ts.flattenDiagnosticMessageText(error.messageText, "\n")}`);
  const paths = (config.compilerOptions?.paths ?? {}) as Record<string, string[]>;
  return new Map(Object.entries(paths).map(([name, [target]]) => [name, path.posix.normalize(target!)]));
}

/** A layer: a name, and the folders (or single files) whose files belong to it. */
export interface Layer {
  name: string;
  paths: readonly string[];
}

/**
 * Layers from lowest to highest. Each entry is a rank; the layers in one rank sit beside each other. A file may
 * import its own layer and any layer of a lower rank, never a layer beside it or above it.
 */
export type LayerTable = readonly (readonly Layer[])[];

/**
 * Every import (static, `export … from`, `import type` and dynamic `import("…")`) of the .ts/.mts/.mjs files under
 * `folders` that names a file of the repository: a relative path, or one of `entries` (resolved to its source file).
 */
export function scanImports(root: string, folders: readonly string[], entries: PackageEntries = new Map()): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const folder of folders) {
    for (const file of listSourceFiles(path.join(root, folder))) {
      const from = toPosix(path.relative(root, file));
      const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
      for (const reference of info.importedFiles) {
        const name = reference.fileName;
        const entry = entries.get(name);
        if (entry !== undefined) edges.push({ from, to: entry, entry: name });
        else if (name.startsWith(".")) edges.push({ from, to: toPosix(path.normalize(path.join(path.dirname(from), name))) });
        // Any other name is another package, which is not a layer.
      }
    }
  }
  return edges;
}

/** The layer a file belongs to (the longest matching path wins), or undefined when no layer claims it. */
export function layerOf(table: LayerTable, file: string): { name: string; rank: number } | undefined {
  let best: { name: string; rank: number; length: number } | undefined;
  table.forEach((rank, rankIndex) => {
    for (const layer of rank) {
      for (const prefix of layer.paths) {
        const matches = file === prefix || file.startsWith(`${prefix}/`);
        if (matches && (best === undefined || prefix.length > best.length)) best = { name: layer.name, rank: rankIndex, length: prefix.length };
      }
    }
  });
  return best && { name: best.name, rank: best.rank };
}

/** One line per import that runs against the layers, or whose file no layer claims. */
export function findLayerViolations(table: LayerTable, edges: readonly ImportEdge[]): string[] {
  const violations: string[] = [];
  for (const edge of edges) {
    const from = layerOf(table, edge.from);
    const to = layerOf(table, edge.to);
    if (from === undefined) violations.push(`${edge.from}: no layer claims this file; add its folder to the layer table`);
    else if (to === undefined) violations.push(`${edge.from} imports ${edge.to}: no layer claims that file`);
    else if (from.name !== to.name && to.rank >= from.rank) {
      const relation = to.rank === from.rank ? "beside" : "above";
      violations.push(`${edge.from} imports ${edge.to}: layer "${from.name}" may not import "${to.name}", which sits ${relation} it`);
    }
  }
  return [...new Set(violations)];
}

/**
 * One line per import by which a plugin file (under one of `pluginFolders`) reaches outside its own plugin folder by
 * path rather than through a package entry: a plugin must be buildable the way a user's is, from the public API.
 * Plugins of one kind (two cookbooks) may share files by relative path.
 */
export function findPrivatePluginImports(pluginFolders: readonly string[], edges: readonly ImportEdge[]): string[] {
  const violations: string[] = [];
  for (const edge of edges) {
    const folder = pluginFolders.find((prefix) => edge.from.startsWith(`${prefix}/`));
    if (folder === undefined || edge.entry !== undefined || edge.to.startsWith(`${folder}/`)) continue;
    violations.push(`${edge.from} imports ${edge.to}: a file under ${folder}/ may import other folders only through the package's entries (rllm-ts/…)`);
  }
  return violations;
}

/**
 * One line per import by which a file outside the plugin folders (src/) reaches inside one plugin: a file under
 * `<kind>/<plugin>/` that is not one of the package's entries. src may use a plugin kind's own files at its root (its
 * registry, the lookup beside it, the contract plugins of that kind implement) and the plugins' public entries,
 * nothing else, so that a plugin's insides can change as a user's can, and a plugin's capabilities are read from
 * what it exports.
 */
export function findPluginInternalImports(pluginFolders: readonly string[], entries: PackageEntries, edges: readonly ImportEdge[]): string[] {
  const entryFiles = new Set([...entries.values()].map(withoutExtension));
  const violations: string[] = [];
  for (const edge of edges) {
    if (pluginFolders.some((prefix) => edge.from.startsWith(`${prefix}/`))) continue;
    const folder = pluginFolders.find((prefix) => edge.to.startsWith(`${prefix}/`));
    if (folder === undefined) continue;
    const isKindRoot = !edge.to.slice(folder.length + 1).includes("/");
    if (isKindRoot || entryFiles.has(withoutExtension(edge.to))) continue;
    violations.push(`${edge.from} imports ${edge.to}: outside ${folder}/, a plugin is reached only through ${folder}/'s registry or a public entry (rllm-ts/…)`);
  }
  return violations;
}

/**
 * Cycles between folders, each as the folders it joins. An import between a folder and one of its own subfolders
 * does not count: a folder's index.ts re-exports its subfolders, and they share the parent's contract file.
 */
export function findFolderCycles(edges: readonly ImportEdge[]): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const edge of edges) {
    const from = path.posix.dirname(edge.from);
    const to = path.posix.dirname(edge.to);
    if (isSameOrNested(from, to)) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(to);
  }
  return stronglyConnectedComponents(graph).filter((component) => component.length > 1);
}

/**
 * Cycles between files, each as the files it joins (extensions dropped: `x.ts` is imported as `x.js`). Every import
 * counts, `import type` and dynamic `import()` included: a lazily loaded module that imports its loader back still
 * makes the two files one unit that neither can be read, tested or moved without.
 */
export function findFileCycles(edges: readonly ImportEdge[]): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const edge of edges) {
    const from = withoutExtension(edge.from);
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(withoutExtension(edge.to));
  }
  return stronglyConnectedComponents(graph)
    .filter((component) => component.length > 1)
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function withoutExtension(file: string): string {
  return file.replace(/\.(m?ts|m?js)$/, "");
}

function isSameOrNested(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

// Tarjan's algorithm: every component with more than one folder is a cycle.
function stronglyConnectedComponents(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    lowLink.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, index.get(next)!));
      }
    }
    if (lowLink.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}

function listSourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return listSourceFiles(full);
    return /\.(m?ts|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

function toPosix(file: string): string {
  return file.split(path.sep).join("/");
}
