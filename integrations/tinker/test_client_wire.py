"""The TypeScript Tinker client's wire format judged by the official SDK (0.38.0): every request it sends must be what
the SDK would send for the same call (its pydantic request model, dumped as the SDK's resources dump it; its protobuf
ForwardBackwardRequest), and every reply the client parsed must parse with the SDK's own response types."""

import base64
import json
import subprocess

import numpy as np
import pytest
import zstandard
from google.protobuf import descriptor_pb2
from tinker import types
from tinker._compat import model_dump
from tinker.proto import tinker_public_pb2 as public_pb
from tinker.proto.request_conv import forward_backward_request_to_proto
from tinker.proto.response_conv import deserialize_forward_backward_output, deserialize_sample_response

from conftest import ROOT

# Path → the SDK request model it sends there (tinker/resources/*.py).
REQUEST_MODELS = {
    "client/config": types.ClientConfigRequest,
    "create_session": types.CreateSessionRequest,
    "session_heartbeat": types.SessionHeartbeatRequest,
    "create_model": types.CreateModelRequest,
    "get_info": types.GetInfoRequest,
    "optim_step": types.OptimStepRequest,
    "save_weights": types.SaveWeightsRequest,
    "save_weights_for_sampler": types.SaveWeightsForSamplerRequest,
    "load_weights": types.LoadWeightsRequest,
    "create_sampling_session": types.CreateSamplingSessionRequest,
    "asample": types.SampleRequest,
    "retrieve_future": types.FutureRetrieveRequest,
    "unload_model": types.UnloadModelRequest,
}
# Path → the SDK response model of its future's result (or of the direct reply).
RESULT_MODELS = {
    "create_model": types.CreateModelResponse,
    "optim_step": types.OptimStepResponse,
    "save_weights": types.SaveWeightsResponse,
    "save_weights_for_sampler": types.SaveWeightsForSamplerResponse,
    "load_weights": types.LoadWeightsResponse,
    "unload_model": types.UnloadModelResponse,
}
DIRECT_REPLIES = {
    "create_session": types.CreateSessionResponse,
    "create_sampling_session": types.CreateSamplingSessionResponse,
    "get_info": types.GetInfoResponse,
    "get_server_capabilities": types.GetServerCapabilitiesResponse,
    "client/config": types.ClientConfigResponse,
}


@pytest.fixture(scope="module")
def exchanges(tmp_path_factory):
    out = tmp_path_factory.mktemp("wire") / "exchanges.json"
    subprocess.run(["node", "--import", "tsx", "test/integrations/tinker/record-client-requests.ts", str(out)], cwd=ROOT, check=True, timeout=600)
    recorded = json.loads(out.read_text())
    for exchange in recorded:
        exchange["route"] = exchange["path"].split("?")[0].removeprefix("/api/v1/")
        exchange["body"] = base64.b64decode(exchange["body"])
        exchange["reply"] = base64.b64decode(exchange["reply"])
    return recorded


def json_of(raw: bytes):
    return json.loads(raw) if raw else None


def test_every_operation_was_recorded(exchanges):
    routes = {exchange["route"] for exchange in exchanges}
    assert set(REQUEST_MODELS) | {"forward_backward", "get_server_capabilities"} <= routes, routes


def test_json_requests_are_exactly_what_the_sdk_sends(exchanges):
    differences = []
    for exchange in exchanges:
        model = REQUEST_MODELS.get(exchange["route"])
        if model is None:
            continue
        assert exchange["headers"].get("content-type") == "application/json", exchange["route"]
        assert exchange["headers"]["x-api-key"].startswith("tml-")
        sent = json_of(exchange["body"])
        # StrictBase forbids unknown fields: a misspelt or invented field fails here.
        parsed = model.model_validate(sent)
        # The SDK's resources post model_dump(request, exclude_unset=False, exclude_none=True, mode="json").
        expected = model_dump(parsed, exclude_unset=False, exclude_none=True, mode="json")
        if sent != expected:
            differences.append(f"{exchange['route']}: client sent {sent}, the SDK sends {expected}")
    assert not differences, "\n".join(sorted(set(differences)))


def sdk_forward_backward(message: public_pb.ForwardBackwardRequest) -> public_pb.ForwardBackwardRequest:
    """The same request rebuilt with the SDK's types and encoded by the SDK's own converter."""
    numpy_dtypes = {public_pb.DTYPE_FLOAT32: np.float32, public_pb.DTYPE_INT64: np.int64}
    data = []
    for datum in message.data:
        tokens = np.frombuffer(b"".join(chunk.encoded_text.tokens for chunk in datum.model_input), dtype=np.int32).tolist()
        inputs = {
            name: types.TensorData.from_numpy(np.frombuffer(tensor.dense, dtype=numpy_dtypes[tensor.dtype]).reshape(list(tensor.shape)))
            for name, tensor in datum.loss_fn_inputs.items()
        }
        data.append(types.Datum(model_input=types.ModelInput.from_ints(tokens), loss_fn_inputs=inputs))
    config = dict(message.loss_fn_config) or None
    request = types.ForwardBackwardRequest(
        forward_backward_input=types.ForwardBackwardInput(data=data, loss_fn=message.loss_fn, loss_fn_config=config),
        model_id=message.model_id,
        seq_id=message.seq_id,
    )
    rebuilt = forward_backward_request_to_proto(request)
    rebuilt.forward_only = message.forward_only
    return rebuilt


def test_forward_backward_bytes_match_the_sdks_encoding(exchanges):
    sent = [exchange for exchange in exchanges if exchange["route"] == "forward_backward"]
    assert len(sent) >= 4
    for exchange in sent:
        assert exchange["headers"]["content-type"] == "application/x-protobuf"
        body = exchange["body"]
        if exchange["headers"].get("content-encoding") == "zstd":
            body = zstandard.ZstdDecompressor().decompress(body)
        message = public_pb.ForwardBackwardRequest.FromString(body)
        expected = sdk_forward_backward(message)
        assert message == expected, f"client: {message}\nSDK: {expected}"
        assert body == expected.SerializeToString(deterministic=True), "the client's bytes differ from the SDK's (deterministic) encoding"


def test_replies_parse_with_the_sdks_response_types(exchanges):
    # Each future's id → the route that made it, so a retrieve_future reply is judged by that route's result type.
    origin = {}
    for exchange in exchanges:
        reply = exchange["reply"]
        if exchange["status"] != 200:
            continue
        route = exchange["route"]
        if route in DIRECT_REPLIES:
            DIRECT_REPLIES[route].model_validate(json_of(reply))
        elif route == "retrieve_future":
            kind = origin[json_of(exchange["body"])["request_id"]]
            if "protobuf" in exchange["replyType"]:
                decoded = deserialize_forward_backward_output(reply) if kind == "forward_backward" else deserialize_sample_response(reply)
                assert decoded is not None
            elif kind in RESULT_MODELS and "try_again" not in reply.decode():
                RESULT_MODELS[kind].model_validate(json_of(reply))
        elif route == "session_heartbeat":
            types.SessionHeartbeatResponse.model_validate(json_of(reply))
        elif route in RESULT_MODELS or route in ("asample", "forward_backward"):
            future = types.UntypedAPIFuture.model_validate(json_of(reply))
            origin[future.request_id] = route
            if route == "asample":
                assert future.sample_sequence_ids is not None


def test_the_clients_proto_schema_agrees_with_the_sdks_descriptor():
    """Every message and field of src/llm/tinker/tinker-public.proto has the SDK's number and type."""
    descriptor_set = subprocess.run(
        ["protoc", "--descriptor_set_out=/dev/stdout", "-I", "src/llm/tinker", "tinker-public.proto"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout
    ours = descriptor_pb2.FileDescriptorSet.FromString(descriptor_set).file[0]
    sdk = descriptor_pb2.FileDescriptorProto()
    public_pb.DESCRIPTOR.CopyToProto(sdk)
    assert ours.package == sdk.package
    sdk_messages = {message.name: message for message in sdk.message_type}
    differences = []
    for message in ours.message_type:
        theirs = sdk_messages.get(message.name)
        if theirs is None:
            differences.append(f"message {message.name} is not in the SDK")
            continue
        fields = {field.name: (field.number, field.type, field.type_name) for field in theirs.field}
        for field in message.field:
            if fields.get(field.name) != (field.number, field.type, field.type_name):
                differences.append(f"{message.name}.{field.name}: ours {(field.number, field.type, field.type_name)}, SDK {fields.get(field.name)}")
    sdk_enums = {enum.name: [(value.name, value.number) for value in enum.value] for enum in sdk.enum_type}
    for enum in ours.enum_type:
        if sdk_enums.get(enum.name) != [(value.name, value.number) for value in enum.value]:
            differences.append(f"enum {enum.name}: ours {[(v.name, v.number) for v in enum.value]}, SDK {sdk_enums.get(enum.name)}")
    assert not differences, "\n".join(differences)
