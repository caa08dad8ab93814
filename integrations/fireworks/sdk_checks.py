"""The fake's judge: fireworks-ai's own request models, payload builders and types, one check per kind of body.

A body the SDK would not write is a Refusal (HTTP 400) whose message names the field.
"""

from __future__ import annotations

import json

import pydantic
from fireworks.training.sdk import types as sdk_types
from fireworks.training.sdk._snapshot_chain import ExportPrecision, SamplerCheckpointType
from fireworks.training.sdk.client import GradAccNormalization
from fireworks.training.sdk.types._pydantic_types.forward_backward_request import ForwardBackwardRequest
from fireworks.training.sdk.types._pydantic_types.forward_request import ForwardRequest
from fireworks.types.completion_create_params import CompletionCreateParamsNonStreaming

# The gateway's Tinker-wire routes, each with the SDK type its body must validate as (None: no body).
GATEWAY_BODIES: dict[str, type | None] = {
    "healthz": None,
    "get_server_capabilities": None,
    "client/config": sdk_types.ClientConfigRequest,
    "create_session": sdk_types.CreateSessionRequest,
    "session_heartbeat": sdk_types.SessionHeartbeatRequest,
    "create_model": sdk_types.CreateModelRequest,
    "get_info": sdk_types.GetInfoRequest,
    "forward_backward": ForwardBackwardRequest,
    "forward": ForwardRequest,
    "optim_step": sdk_types.OptimStepRequest,
    "save_weights": sdk_types.SaveWeightsRequest,
    "save_weights_for_sampler": sdk_types.SaveWeightsForSamplerRequest,
    "load_weights": sdk_types.LoadWeightsRequest,
    "unload_model": sdk_types.UnloadModelRequest,
    "retrieve_future": sdk_types.FutureRetrieveRequest,
}
# Fields the SDK adds beside its request models through extra_body (client.py), each with the type of its values.
GATEWAY_EXTRA_BODY: dict[str, dict[str, pydantic.TypeAdapter]] = {
    "save_weights_for_sampler": {"checkpoint_type": pydantic.TypeAdapter(SamplerCheckpointType), "export_precision": pydantic.TypeAdapter(ExportPrecision), "metadata": pydantic.TypeAdapter(dict)},
    "optim_step": {"grad_accumulation_normalization": pydantic.TypeAdapter(GradAccNormalization)},
    "forward": {"comms": pydantic.TypeAdapter(str)},
    "forward_backward": {"comms": pydantic.TypeAdapter(str)},
}
COMPLETION_KEYS = CompletionCreateParamsNonStreaming.__required_keys__ | CompletionCreateParamsNonStreaming.__optional_keys__
COMPLETION_PARAMS = pydantic.TypeAdapter(CompletionCreateParamsNonStreaming)


class Refusal(Exception):
    """An HTTP error answer: status and message (the message names the field)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def describe(error: pydantic.ValidationError, what: str) -> str:
    issue = error.errors()[0]
    field = ".".join(str(part) for part in issue["loc"]) or "(root)"
    return f'{what}: field "{field}": {issue["msg"]}'


def check_gateway_body(route: str, payload: dict) -> None:
    """The body of /api/v1/<route>: the SDK's extra_body fields by their types, the rest by the route's request model."""
    model = GATEWAY_BODIES[route]
    if model is None:
        return
    payload = dict(payload)
    try:
        for key, adapter in GATEWAY_EXTRA_BODY.get(route, {}).items():
            if key in payload:
                adapter.validate_python(payload.pop(key))
        model.model_validate(payload)
    except pydantic.ValidationError as error:
        raise Refusal(400, describe(error, f"/api/v1/{route}")) from error


def check_same_as_sdk(expected: dict, payload: dict) -> None:
    """A create body must be exactly what the SDK's builder writes for the same settings."""
    for key in sorted(set(expected) | set(payload)):
        if expected.get(key) != payload.get(key):
            raise Refusal(400, f'field "{key}": {json.dumps(payload.get(key))}, the SDK sends {json.dumps(expected.get(key))}')


def check_completion_params(payload: dict) -> dict:
    """A non-streaming completions body: known parameters only, each of its declared type."""
    unknown = set(payload) - COMPLETION_KEYS
    if unknown:
        raise Refusal(400, f'field "{sorted(unknown)[0]}": not a completions parameter')
    try:
        return COMPLETION_PARAMS.validate_python(payload)
    except pydantic.ValidationError as error:
        raise Refusal(400, describe(error, "/inference/v1/completions")) from error
