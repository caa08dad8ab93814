// The JSON wire (Tinker 0.23's, kept by the Fireworks gateway) carries the same request as the protobuf one: what the
// local server decodes from either is equal, and forward-only calls go to /forward.
import { describe, expect, it } from "vitest";
import { decodeJsonForwardBackward, JsonForwardBackwardSchema, JsonForwardSchema } from "../../../src/tinker-server/json-forward-backward.js";
import { jsonForwardBackwardRequest } from "../../../src/llm/tinker/tinker-json-wire.js";
import { decodeForwardBackwardRequest, encodeForwardBackwardRequest, type ForwardBackwardInput } from "../../../src/llm/tinker/tinker-proto.js";

const request: ForwardBackwardInput = {
  modelId: "session-1:train:0",
  seqId: 7,
  lossFn: "ppo",
  lossFnConfig: { clip_low_threshold: 0.8, clip_high_threshold: 1.28 },
  data: [
    {
      modelInput: [5, 9, 11],
      lossFnInputs: { target_tokens: { dtype: "int64", values: [9, 11, 2] }, logprobs: { dtype: "float32", values: [-0.5, -1.25, -2] }, advantages: { dtype: "float32", values: [0, 0.5, 0.5] } },
    },
  ],
};

describe("jsonForwardBackwardRequest", () => {
  it("decodes to what the protobuf request decodes to", () => {
    const { route, body } = jsonForwardBackwardRequest(request);
    expect(route).toBe("forward_backward");
    const viaJson = decodeJsonForwardBackward(JsonForwardBackwardSchema.parse(JSON.parse(JSON.stringify(body))));
    expect(viaJson).toEqual(decodeForwardBackwardRequest(encodeForwardBackwardRequest(request)));
  });

  it("sends forward-only calls to /forward as forward_input", () => {
    const { route, body } = jsonForwardBackwardRequest({ ...request, lossFn: "cross_entropy", lossFnConfig: {}, forwardOnly: true });
    expect(route).toBe("forward");
    expect(Object.keys(body).sort()).toEqual(["forward_input", "model_id", "seq_id"]);
    // An empty config is left out, as the SDK leaves out a None one.
    expect(body.forward_input).not.toHaveProperty("loss_fn_config");
    expect(decodeJsonForwardBackward(JsonForwardSchema.parse(body)).forwardOnly).toBe(true);
  });
});
