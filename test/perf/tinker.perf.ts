/**
 * `npm run bench -- tinker`: the Tinker client's cost of building and encoding forward_backward requests for a batch
 * of 1024 datums × 2048 tokens (importance_sampling: int32 input, int64 targets, float32 logprobs and advantages):
 * MB/s, bytes per trained token, and the encode time of one 5,000,000-byte request against a 1-second
 * forward_backward (the goal: under 5%). Figures depend on the machine's load: compare runs on a quiet machine.
 */
import { LossConfigSchema, type BatchSequence } from "../../src/training/backend.js";
import { chunkDatums } from "../../src/llm/tinker/request-chunks.js";
import { aggregationScales, sequenceDatum } from "../../src/training/backends/tinker/scaled-advantages.js";
import { loadZstd } from "../../src/llm/tinker/tinker-http-client.js";
import { encodeDatum, encodeForwardBackwardRequest } from "../../src/llm/tinker/tinker-proto.js";

const DATUMS = 1024;
const TOKENS = 2048;
const PROMPT = 512;
const runs = Number(process.env.TINKER_BENCH_RUNS ?? 3);

const sequences: BatchSequence[] = Array.from({ length: DATUMS }, (_, row) => ({
  tokens: Array.from({ length: TOKENS }, (_, position) => (row * 7919 + position * 104_729) % 151_000),
  lossMask: Array.from({ length: TOKENS }, (_, position) => (position >= PROMPT ? 1 : 0)),
  samplerLogprobs: Array.from({ length: TOKENS }, (_, position) => (position >= PROMPT ? -Math.random() * 3 : 0)),
  advantage: row % 2 === 0 ? 0.5 : -0.5,
}));
const trainedTokens = DATUMS * (TOKENS - PROMPT);
const loss = LossConfigSchema.parse({ kind: "importance_sampling" });

let best = Number.POSITIVE_INFINITY;
let bytes = 0;
let requests = 0;
let largest: Uint8Array = new Uint8Array();
for (let run = 0; run < runs; run++) {
  const started = performance.now();
  const scales = aggregationScales(sequences, "token-mean");
  const datums = sequences.map((sequence, index) => encodeDatum(sequenceDatum(sequence, loss, scales[index]!)));
  const chunks = chunkDatums(datums, { maxDatums: 1024, maxBytes: 5_000_000 });
  bytes = 0;
  for (const [index, chunk] of chunks.entries()) {
    const body = encodeForwardBackwardRequest({ modelId: "session:train:0", seqId: index + 1, data: chunk, lossFn: loss.kind });
    bytes += body.byteLength;
    if (body.byteLength > largest.byteLength) largest = body;
  }
  requests = chunks.length;
  best = Math.min(best, performance.now() - started);
}
const megabytes = bytes / 1e6;
const perRequestMs = (best / bytes) * largest.byteLength;
console.log(`batch: ${DATUMS} datums × ${TOKENS} tokens (${PROMPT} prompt), ${trainedTokens} trained tokens; best of ${runs} runs`);
console.log(`client build + chunk + encode: ${best.toFixed(0)} ms for ${megabytes.toFixed(1)} MB in ${requests} requests → ${(megabytes / (best / 1000)).toFixed(0)} MB/s`);
console.log(`bytes per trained token: ${(bytes / trainedTokens).toFixed(1)} (per token of the sequence: ${(bytes / (DATUMS * TOKENS)).toFixed(1)})`);
console.log(`one ${(largest.byteLength / 1e6).toFixed(2)} MB request: ${perRequestMs.toFixed(1)} ms = ${((perRequestMs / 1000) * 100).toFixed(1)}% of a 1-second forward_backward (goal: under 5%)`);
const zstd = await loadZstd();
const compressStarted = performance.now();
const compressed = zstd.compress(largest);
console.log(`zstd (when the server asks for it): ${(largest.byteLength / compressed.byteLength).toFixed(2)}× smaller, ${(performance.now() - compressStarted).toFixed(0)} ms for that request`);
