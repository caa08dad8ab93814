/**
 * The local Tinker server's reading of a JSON forward_backward or forward body (Tinker 0.23's wire, which Fireworks'
 * trainer gateway keeps: tinker-json-wire.ts writes it) into the same decoded request the protobuf route gives.
 */
import { z } from "zod";
import type { DecodedForwardBackwardRequest } from "../llm/tinker/tinker-proto.js";

const TensorSchema = z.object({ data: z.array(z.number()), dtype: z.enum(["int64", "float32"]), shape: z.array(z.number().int()).nullish() });
const InputSchema = z.object({
  data: z.array(
    z.object({
      model_input: z.object({ chunks: z.array(z.object({ type: z.literal("encoded_text"), tokens: z.array(z.number().int()) })) }),
      loss_fn_inputs: z.record(z.string(), TensorSchema),
    }),
  ),
  loss_fn: z.string(),
  loss_fn_config: z.record(z.string(), z.number()).nullish(),
});

/** forward_backward's body (ForwardBackwardRequest) and forward's (ForwardRequest, its input under forward_input). */
export const JsonForwardBackwardSchema = z.object({ forward_backward_input: InputSchema, model_id: z.string(), seq_id: z.number().int() });
export const JsonForwardSchema = z.object({ forward_input: InputSchema, model_id: z.string(), seq_id: z.number().int() });

/** The decoded request of a parsed JSON body. */
export function decodeJsonForwardBackward(body: z.infer<typeof JsonForwardBackwardSchema> | z.infer<typeof JsonForwardSchema>): DecodedForwardBackwardRequest {
  const forwardOnly = "forward_input" in body;
  const input = "forward_input" in body ? body.forward_input : body.forward_backward_input;
  return {
    modelId: body.model_id,
    seqId: body.seq_id,
    lossFn: input.loss_fn,
    lossFnConfig: input.loss_fn_config ?? {},
    forwardOnly,
    data: input.data.map((datum) => ({
      modelInput: datum.model_input.chunks.flatMap((chunk) => chunk.tokens),
      lossFnInputs: Object.fromEntries(Object.entries(datum.loss_fn_inputs).map(([name, tensor]) => [name, tensor.data])),
    })),
  };
}
