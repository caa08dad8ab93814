/**
 * forward_backward and forward as JSON bodies: the Tinker 0.23 wire that the Fireworks trainer gateway keeps (its SDK,
 * fireworks-ai 1.2.30, refuses the protobuf transport: FiretitanTrainingClient.forward_backward and
 * TINKER_COMPATIBILITY.md). The body is what `model_dump(to_pydantic_request(request), exclude_none=True, mode="json")`
 * writes there: forward-only calls go to /forward as ForwardRequest, not as a forward_only flag.
 */
import type { DatumInput, ForwardBackwardInput } from "./tinker-proto.js";

/** The route and JSON body of one forward_backward (or, when `forwardOnly`, forward) request. */
export function jsonForwardBackwardRequest(request: ForwardBackwardInput): { route: "forward" | "forward_backward"; body: Record<string, unknown> } {
  const input = {
    data: request.data.map(jsonDatum),
    loss_fn: request.lossFn,
    // The SDK leaves a None config out (exclude_none); an empty one is sent as None.
    ...(request.lossFnConfig && Object.keys(request.lossFnConfig).length > 0 ? { loss_fn_config: request.lossFnConfig } : {}),
  };
  if (request.forwardOnly) return { route: "forward", body: { forward_input: input, model_id: request.modelId, seq_id: request.seqId } };
  return { route: "forward_backward", body: { forward_backward_input: input, model_id: request.modelId, seq_id: request.seqId } };
}

// One encoded_text chunk; each loss input as TensorData {data, dtype} (1-D, so the shape is inferred).
function jsonDatum(datum: DatumInput): Record<string, unknown> {
  return {
    model_input: { chunks: [{ tokens: datum.modelInput, type: "encoded_text" }] },
    loss_fn_inputs: Object.fromEntries(Object.entries(datum.lossFnInputs).map(([name, tensor]) => [name, { data: tensor.values, dtype: tensor.dtype }])),
  };
}
