/**
 * Tinker's protobuf messages (tinker-public.proto, from backends.md §1.11) through protobufjs: the client encodes
 * ForwardBackwardRequest and decodes ForwardBackwardOutput and SampleResponse; the local Tinker server does the reverse.
 */
import protobuf from "protobufjs";
import { packagePath } from "../../core/package-root.js";
import { decodeTensorBytes, DTYPE, int32Bytes, int64Bytes, tensorBytes, type WireDtype } from "./tensor-bytes.js";

/** The schema file kept beside this module (the wire contract). */
export const TINKER_PROTO_FILE = packagePath("src", "llm", "tinker", "tinker-public.proto");

let root: protobuf.Root | undefined;
function messageType(name: string): protobuf.Type {
  root ??= protobuf.loadSync(TINKER_PROTO_FILE);
  return root.lookupType(`tinker_public.${name}`);
}

/** One loss input: flat values and their wire dtype (the shape is the datum's length). */
export interface TensorInput {
  dtype: WireDtype;
  values: readonly number[];
}

/** One Datum: the model input's tokens (one encoded_text chunk) and the loss inputs by name. */
export interface DatumInput {
  modelInput: readonly number[];
  lossFnInputs: Record<string, TensorInput>;
}

/** A forward_backward request as the client builds it. */
export interface ForwardBackwardInput {
  modelId: string;
  seqId: number;
  data: readonly DatumInput[];
  lossFn: string;
  lossFnConfig?: Record<string, number>;
  forwardOnly?: boolean;
}

// Map entries go out in sorted key order, so that equal requests are equal bytes.
function sortedEntries<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The wire message of one datum (also used to size chunks). */
export function datumMessage(datum: DatumInput): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const [name, tensor] of Object.entries(sortedEntries(datum.lossFnInputs))) {
    inputs[name] = { dense: tensorBytes(tensor.values, tensor.dtype), dtype: DTYPE[tensor.dtype], shape: [tensor.values.length] };
  }
  return { modelInput: [{ encodedText: { tokens: int32Bytes(datum.modelInput) } }], lossFnInputs: inputs };
}

/** One Datum's bytes (what a request repeats in field 3). */
export function encodeDatum(datum: DatumInput): Uint8Array {
  return messageType("Datum").encode(datumMessage(datum)).finish();
}

/** Encoded size of one datum inside a request (field tag and length prefix included). */
export function encodedDatumBytes(datum: DatumInput | Uint8Array): number {
  const length = datum instanceof Uint8Array ? datum.byteLength : encodeDatum(datum).byteLength;
  return 1 + varintLength(length) + length;
}

function varintLength(value: number): number {
  let bytes = 1;
  for (let rest = value; rest >= 0x80; rest = Math.floor(rest / 0x80)) bytes += 1;
  return bytes;
}

/**
 * ForwardBackwardRequest bytes, written field by field in field-number order with proto3 defaults left out (as protoc
 * writes them); datums may come already encoded, so that sizing them for chunks and sending them encode them once.
 */
export function encodeForwardBackwardRequest(request: Omit<ForwardBackwardInput, "data"> & { data: readonly (DatumInput | Uint8Array)[] }): Uint8Array {
  const writer = protobuf.Writer.create();
  if (request.modelId !== "") writer.uint32(0x0a).string(request.modelId);
  if (request.seqId !== 0) writer.uint32(0x10).int32(request.seqId);
  for (const datum of request.data) writer.uint32(0x1a).bytes(datum instanceof Uint8Array ? datum : encodeDatum(datum));
  if (request.lossFn !== "") writer.uint32(0x22).string(request.lossFn);
  for (const [key, value] of Object.entries(sortedEntries(request.lossFnConfig ?? {}))) {
    writer.uint32(0x2a).fork().uint32(0x0a).string(key).uint32(0x11).double(value).ldelim();
  }
  if (request.forwardOnly) writer.uint32(0x30).bool(true);
  // Field 7, loss_fn_config_v2: the same numbers as LossConfigValue.number, as tinker 0.38's request_conv.py dual-writes.
  for (const [key, value] of Object.entries(sortedEntries(request.lossFnConfig ?? {}))) {
    writer.uint32(0x3a).fork().uint32(0x0a).string(key).uint32(0x12).fork().uint32(0x09).double(value).ldelim().ldelim();
  }
  return writer.finish();
}

/** A decoded forward_backward request (the local server's view). */
export interface DecodedForwardBackwardRequest {
  modelId: string;
  seqId: number;
  data: { modelInput: number[]; lossFnInputs: Record<string, number[]> }[];
  lossFn: string;
  lossFnConfig: Record<string, number>;
  forwardOnly: boolean;
}

interface RawTensor {
  dense?: Uint8Array;
  sparseCsr?: unknown;
  dtype?: number;
}

/** Decodes ForwardBackwardRequest bytes; a sparse tensor or a non-text chunk is an error. */
export function decodeForwardBackwardRequest(bytes: Uint8Array): DecodedForwardBackwardRequest {
  const raw = messageType("ForwardBackwardRequest").toObject(messageType("ForwardBackwardRequest").decode(bytes), { defaults: true, longs: Number }) as {
    modelId: string;
    seqId: number;
    data: { modelInput: { encodedText?: { tokens: Uint8Array } }[]; lossFnInputs: Record<string, RawTensor> }[];
    lossFn: string;
    lossFnConfig: Record<string, number>;
    forwardOnly: boolean;
  };
  return {
    modelId: raw.modelId,
    seqId: raw.seqId,
    lossFn: raw.lossFn,
    lossFnConfig: raw.lossFnConfig,
    forwardOnly: raw.forwardOnly,
    data: raw.data.map((datum, index) => ({
      modelInput: datum.modelInput.flatMap((chunk) => {
        if (!chunk.encodedText) throw new Error(`datum ${index}: only encoded_text chunks are supported`);
        return decodeTensorBytes(chunk.encodedText.tokens, DTYPE.int32);
      }),
      lossFnInputs: Object.fromEntries(
        Object.entries(datum.lossFnInputs).map(([name, tensor]) => {
          if (!tensor.dense) throw new Error(`datum ${index}: loss input "${name}" is not a dense tensor`);
          return [name, decodeTensorBytes(tensor.dense, tensor.dtype ?? DTYPE.unspecified)];
        }),
      ),
    })),
  };
}

/** Per-datum outputs by name (e.g. the learner's `logprobs`), and the step's metrics. */
export interface ForwardBackwardResult {
  lossFnOutputType: string;
  outputs: Record<string, number[]>[];
  metrics: Record<string, number>;
}

/** Decodes ForwardBackwardOutput bytes: each ArrayRecord's batched tensors are sliced per datum by their byte offsets. */
export function decodeForwardBackwardOutput(bytes: Uint8Array): ForwardBackwardResult {
  const type = messageType("ForwardBackwardOutput");
  const raw = type.toObject(type.decode(bytes), { defaults: true, longs: Number }) as {
    lossFnOutputType: string;
    lossFnOutputs: { fields: Record<string, { data: Uint8Array; offsets: Uint8Array; dtype: number }>; numDatums: number }[];
    metrics: Record<string, number>;
  };
  const outputs: Record<string, number[]>[] = [];
  for (const record of raw.lossFnOutputs) {
    const datums: Record<string, number[]>[] = Array.from({ length: record.numDatums }, () => ({}));
    for (const [name, batched] of Object.entries(record.fields)) {
      const offsets = decodeTensorBytes(batched.offsets, DTYPE.int64);
      if (offsets.length !== record.numDatums + 1) {
        throw new Error(`output "${name}": ${offsets.length} offsets for ${record.numDatums} datums (expected one more)`);
      }
      for (let datum = 0; datum < record.numDatums; datum++) {
        datums[datum]![name] = decodeTensorBytes(batched.data.subarray(offsets[datum]!, offsets[datum + 1]!), batched.dtype);
      }
    }
    outputs.push(...datums);
  }
  return { lossFnOutputType: raw.lossFnOutputType, outputs, metrics: raw.metrics };
}

/** ForwardBackwardOutput bytes with all datums in one float32 ArrayRecord (the local server's reply). */
export function encodeForwardBackwardOutput(result: ForwardBackwardResult): Uint8Array {
  const names = [...new Set(result.outputs.flatMap((output) => Object.keys(output)))].sort();
  const fields: Record<string, unknown> = {};
  for (const name of names) {
    const parts = result.outputs.map((output) => tensorBytes(output[name] ?? [], "float32"));
    const offsets = [0];
    for (const part of parts) offsets.push(offsets.at(-1)! + part.byteLength);
    fields[name] = { data: Buffer.concat(parts), offsets: int64Bytes(offsets), dtype: DTYPE.float32, trailingShape: [] };
  }
  return messageType("ForwardBackwardOutput")
    .encode({
      lossFnOutputType: result.lossFnOutputType,
      lossFnOutputs: [{ typeTag: "per_datum", fields, numDatums: result.outputs.length }],
      metrics: sortedEntries(result.metrics),
    })
    .finish();
}

/** One sampled sequence. */
export interface SampledSequence {
  tokens: number[];
  logprobs: number[];
  stopReason: "stop" | "length";
}

/** Decodes SampleResponse bytes. */
export function decodeSampleResponse(bytes: Uint8Array): { sequences: SampledSequence[] } {
  const type = messageType("SampleResponse");
  const raw = type.toObject(type.decode(bytes), { defaults: true, longs: Number }) as {
    sequences: { stopReason: number; tokens: Uint8Array; logprobs?: Uint8Array }[];
  };
  return {
    sequences: raw.sequences.map((sequence) => ({
      tokens: decodeTensorBytes(sequence.tokens, DTYPE.int32),
      logprobs: sequence.logprobs ? decodeTensorBytes(sequence.logprobs, DTYPE.float32) : [],
      stopReason: sequence.stopReason === 1 ? "length" : "stop",
    })),
  };
}

/** SampleResponse bytes (the local server's reply). */
export function encodeSampleResponse(sequences: readonly SampledSequence[], promptLogprobs?: readonly (number | null)[]): Uint8Array {
  return messageType("SampleResponse")
    .encode({
      sequences: sequences.map((sequence) => ({
        stopReason: sequence.stopReason === "length" ? 1 : 0,
        tokens: int32Bytes(sequence.tokens),
        logprobs: tensorBytes(sequence.logprobs, "float32"),
      })),
      // float32 per prompt token, NaN where none was computed (the first token; those before prompt_logprobs_last_n).
      ...(promptLogprobs ? { promptLogprobs: tensorBytes(promptLogprobs.map((logprob) => logprob ?? Number.NaN), "float32") } : {}),
    })
    .finish();
}
