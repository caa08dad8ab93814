/**
 * rLLM's FrozenLake map generator (cookbooks/frozenlake/frozenlake_flow.py), drawn from this project's seeded rng
 * instead of numpy's PCG64: the same algorithm, so the same distribution of maps, but not numpy's maps bit for bit.
 */
import { createRng, randomInt, type Rng } from "rllm-ts/core";

/** A map as rows of tiles: S start, F frozen, H hole, G goal. */
export type FrozenLakeMap = string[];

// rLLM's solvability search stops following a path deeper than this many moves.
const searchDepthLimit = 50;
// Tries at drawing distinct S and G cells before a fresh board is drawn.
const placementTries = 64;

/** A solvable `size`×`size` map whose tiles are frozen with probability `p` (clamped to [0, 1]), replayable from `seed`. */
export function generateFrozenLakeMap(size: number, p: number, seed: number): FrozenLakeMap {
  if (!Number.isInteger(size) || size < 2) throw new Error(`FrozenLake map size must be an integer ≥ 2, got ${size}`);
  const rng = createRng(seed);
  const frozen = Math.min(1, Math.max(0, p));
  for (;;) {
    const board: string[][] = Array.from({ length: size }, () => Array.from({ length: size }, () => (rng() < frozen ? "F" : "H")));
    const cells = placeStartAndGoal(rng, size);
    if (!cells) continue;
    board[cells.start[0]]![cells.start[1]] = "S";
    board[cells.goal[0]]![cells.goal[1]] = "G";
    const rows = board.map((row) => row.join(""));
    if (isSolvable(rows)) return rows;
  }
}

/** Four draws per try (S row, S column, G row, G column) until S ≠ G; undefined after `placementTries` tries. */
function placeStartAndGoal(rng: Rng, size: number): { start: [number, number]; goal: [number, number] } | undefined {
  for (let attempt = 0; attempt < placementTries; attempt++) {
    const start: [number, number] = [randomInt(rng, size), randomInt(rng, size)];
    const goal: [number, number] = [randomInt(rng, size), randomInt(rng, size)];
    if (start[0] !== goal[0] || start[1] !== goal[1]) return { start, goal };
  }
  return undefined;
}

/** rLLM's check: a depth-first search from S over the four neighbours, through non-hole cells, to a G neighbour. */
export function isSolvable(map: FrozenLakeMap): boolean {
  const size = map.length;
  const startRow = map.findIndex((row) => row.includes("S"));
  if (startRow < 0) return false;
  const stack: [number, number, number][] = [[startRow, map[startRow]!.indexOf("S"), 0]];
  const seen = new Set<number>();
  while (stack.length > 0) {
    const [row, column, depth] = stack.pop()!;
    if (seen.has(row * size + column) || depth > searchDepthLimit) continue;
    seen.add(row * size + column);
    for (const [rowStep, columnStep] of [[1, 0], [0, 1], [-1, 0], [0, -1]] as const) {
      const nextRow = row + rowStep;
      const nextColumn = column + columnStep;
      if (nextRow < 0 || nextRow >= size || nextColumn < 0 || nextColumn >= size) continue;
      const tile = map[nextRow]![nextColumn];
      if (tile === "G") return true;
      if (tile !== "H") stack.push([nextRow, nextColumn, depth + 1]);
    }
  }
  return false;
}
