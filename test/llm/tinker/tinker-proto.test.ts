import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  decodeForwardBackwardOutput,
  decodeForwardBackwardRequest,
  decodeSampleResponse,
  encodeForwardBackwardOutput,
  encodeForwardBackwardRequest,
  TINKER_PROTO_FILE,
} from "../../../src/llm/tinker/tinker-proto.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

// Debian's protobuf-compiler (installed by .ci/run): the reference encoder the bytes must match.
function protocEncode(message: string, fixture: string): Buffer {
  return execFileSync("protoc", [`--proto_path=${path.dirname(TINKER_PROTO_FILE)}`, `--encode=tinker_public.${message}`, path.basename(TINKER_PROTO_FILE)], {
    input: readFileSync(path.join(fixtures, fixture)),
  });
}

const request = {
  modelId: "s:train:0",
  seqId: 3,
  lossFn: "ppo",
  lossFnConfig: { clip_low_threshold: 0.8, clip_high_threshold: 1.28 },
  data: [
    {
      modelInput: [1, 2, 300],
      lossFnInputs: {
        target_tokens: { dtype: "int64" as const, values: [2, 300, 4] },
        advantages: { dtype: "float32" as const, values: [0, 0.5, -1.25] },
      },
    },
  ],
};

describe("Tinker protobuf codec", () => {
  it("encodes a ForwardBackwardRequest to the same bytes as protoc --encode of the same text message", () => {
    const ours = Buffer.from(encodeForwardBackwardRequest(request));
    expect(ours.equals(protocEncode("ForwardBackwardRequest", "forward-backward-request.txtpb"))).toBe(true);
  });

  it("decodes its own request back to the datums it encoded", () => {
    const decoded = decodeForwardBackwardRequest(encodeForwardBackwardRequest(request));
    expect(decoded).toMatchObject({ modelId: "s:train:0", seqId: 3, lossFn: "ppo", forwardOnly: false });
    expect(decoded.data[0]!.modelInput).toEqual([1, 2, 300]);
    expect(decoded.data[0]!.lossFnInputs.target_tokens).toEqual([2, 300, 4]);
    expect(decoded.data[0]!.lossFnInputs.advantages).toEqual([0, 0.5, -1.25]);
    expect(decoded.lossFnConfig.clip_high_threshold).toBeCloseTo(1.28, 12);
  });

  it("decodes a protoc-encoded reply with two records, widening INT32 and BFLOAT16, sliced per datum by byte offsets", () => {
    const result = decodeForwardBackwardOutput(protocEncode("ForwardBackwardOutput", "forward-backward-output.txtpb"));
    expect(result.lossFnOutputType).toBe("per_datum");
    expect(result.metrics).toEqual({ "loss:sum": 2.5 });
    expect(result.outputs).toEqual([
      { ids: [7], logprobs: [-0.5] },
      { ids: [8, 9], logprobs: [-1, -2] },
      { logprobs: [1.5, -0.25] },
    ]);
  });

  it("decodes a protoc-encoded SampleResponse: int32 tokens, float32 logprobs, stop reasons", () => {
    expect(decodeSampleResponse(protocEncode("SampleResponse", "sample-response.txtpb")).sequences).toEqual([
      { tokens: [5, 6, 300], logprobs: [-0.5, -1, -0.25], stopReason: "length" },
      { tokens: [4], logprobs: [-2], stopReason: "stop" },
    ]);
  });

  it("round-trips the server's ForwardBackwardOutput", () => {
    const outputs = [{ logprobs: [-0.5, -1] }, { logprobs: [] }, { logprobs: [-3] }];
    expect(decodeForwardBackwardOutput(encodeForwardBackwardOutput({ lossFnOutputType: "per_datum", outputs, metrics: { "loss:sum": 1 } })).outputs).toEqual(outputs);
  });
});
