/** Collects a child process's stream up to a byte cap, draining and counting the rest. */
import type { Readable } from "node:stream";

/** A capped buffer fed by `stream`: `text()` is the kept head, `truncated` whether bytes were dropped. */
export function collectOutput(stream: Readable, capBytes: number) {
  const chunks: Buffer[] = [];
  let kept = 0;
  let truncated = false;
  stream.on("data", (chunk: Buffer) => {
    if (kept >= capBytes) {
      truncated = true;
      return;
    }
    const room = capBytes - kept;
    if (chunk.length > room) truncated = true;
    const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
    chunks.push(piece);
    kept += piece.length;
  });
  return {
    text: () => Buffer.concat(chunks).toString("utf8"),
    get truncated() {
      return truncated;
    },
  };
}
