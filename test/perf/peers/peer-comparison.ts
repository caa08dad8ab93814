/** The shape of one peer comparison of `npm run bench:peers`, and of the table rows it gives. */

/** One row of the bench's table (and of docs/results/peers-bench.json, which scripts/peers-readme-table.ts reads). */
export interface PeerRow {
  comparison: string;
  peer: string;
  peerFigure: string;
  oursFigure: string;
  ratio: string;
  goal: string;
}

/**
 * One comparison: `start` prepares its inputs (and warms up), `round` measures both sides once (the peer first on even
 * rounds, ours first on odd ones, so that a change in the machine's load hits both alike), `finish` runs what is
 * measured once or cleans up, and `rows` gives its table rows from what the rounds measured.
 */
export interface PeerComparison {
  name: string;
  start?(): Promise<void>;
  round?(round: number, rounds: number): Promise<void>;
  finish?(): Promise<void>;
  rows(): PeerRow[];
}

/** The two sides of a round in alternating order: the peer first on even rounds, ours first on odd ones. */
export function alternate<Side>(round: number, peer: Side, ours: Side): Side[] {
  return round % 2 === 1 ? [ours, peer] : [peer, ours];
}
