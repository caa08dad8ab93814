"""A local fake of Fireworks' control plane, trainer gateway, hot-load and inference APIs, for rllm-ts's tests.

Every request body is validated with the official fireworks-ai SDK's own types and request builders (the version
pinned in integrations/python/ml.txt; the checks are in sdk_checks.py): a body the SDK would not write is refused
with HTTP 400 naming the field.
Training behind the gateway is delegated to the project's Tinker emulator (`rllm serve --tinker`, the tiny model),
so loss really moves; the fake never reaches the real service.

    python fake_fireworks.py --tinker-url http://127.0.0.1:PORT --api-key KEY [--models a,b]
prints "fake fireworks at http://127.0.0.1:PORT" on stderr once it listens.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
import traceback
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import httpx
from fireworks.training.sdk.deployment import DeploymentConfig, DeploymentManager
from fireworks.training.sdk.trainer import TrainerJobConfig, TrainerJobManager
from fireworks.types import CompletionCreateResponse
from sdk_checks import GATEWAY_BODIES, Refusal, check_completion_params, check_gateway_body, check_same_as_sdk

ACCOUNT = "rllm-fake"


class FakeFireworks:
    """The fake's state: trainer jobs, deployments and what each deployment serves; one lock guards it."""

    def __init__(self, tinker_url: str, api_key: str, models: list[str]):
        self.tinker = httpx.Client(base_url=f"{tinker_url}/api/v1", headers={"X-API-Key": "tml-fireworks-fake"}, timeout=120)
        self.api_key = api_key
        self.models = models
        self.jobs: dict[str, dict] = {}
        self.deployments: dict[str, dict] = {}
        self.lock = threading.Lock()
        self.sampling_session: str | None = None
        self.tinker_model_name: str | None = None
        self.requests: list[str] = []

    # -- the Tinker emulator behind the gateway and the deployments --------------------------------------------------

    def tinker_future(self, route: str, body: dict) -> dict:
        """Submits a Tinker call and polls its future to the result (JSON)."""
        request_id = self.tinker.post(route, json=body).raise_for_status().json()["request_id"]
        while True:
            reply = self.tinker.post("retrieve_future", json={"request_id": request_id, "allow_metadata_only": False})
            if reply.status_code == 408:
                continue
            result = reply.raise_for_status().json()
            if result.get("type") == "try_again":
                time.sleep(0.01)
                continue
            if "error" in result:
                raise Refusal(400, f"{route}: {result['error']}")
            return result

    def tinker_model(self) -> str:
        """The emulator's one base model, which every Fireworks model name of this fake stands for."""
        if self.tinker_model_name is None:
            self.tinker_model_name = self.tinker.get("get_server_capabilities").raise_for_status().json()["supported_models"][0]["model_name"]
        return self.tinker_model_name

    def to_tinker(self, route: str, body: bytes) -> bytes:
        """A gateway body as the emulator takes it: Fireworks model names become the emulator's."""
        if route != "create_model":
            return body
        payload = json.loads(body)
        if payload["base_model"] not in self.models:
            raise Refusal(400, f'/api/v1/create_model: field "base_model": {payload["base_model"]} is not a model of this trainer job')
        return json.dumps({**payload, "base_model": self.tinker_model()}).encode()

    def from_tinker(self, route: str, content: bytes) -> bytes:
        """An emulator reply as the gateway answers it: the emulator's model name becomes the Fireworks one."""
        if route != "get_server_capabilities":
            return content
        reply = json.loads(content)
        reply["supported_models"] = [{**model, "model_name": name} for name in self.models for model in reply["supported_models"][:1]]
        return json.dumps(reply).encode()

    def sampling_session_on(self, source: dict) -> str:
        """A Tinker sampling session on `source` ({"base_model": …} or {"model_path": …})."""
        if self.sampling_session is None:
            self.sampling_session = self.tinker.post("create_session", json={"tags": ["fake-fireworks"], "user_metadata": {}, "sdk_version": "fake", "type": "create_session"}).raise_for_status().json()["session_id"]
        reply = self.tinker.post("create_sampling_session", json={"session_id": self.sampling_session, "sampling_session_seq_id": len(self.requests), **source, "type": "create_sampling_session"})
        if reply.status_code != 200:
            raise Refusal(400, f"hot load: {reply.text}")
        return reply.json()["sampling_session_id"]

    # -- routes ---------------------------------------------------------------------------------------------------------

    def handle(self, method: str, url: str, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, str], bytes]:
        parsed = urlparse(url)
        path, query = parsed.path, parse_qs(parsed.query)
        if method == "GET" and path == "/fake/state":
            # For tests, without a key: which jobs and deployments are left, and every request's method and path.
            with self.lock:
                return json_reply({"jobs": {job_id: job["state"] for job_id, job in self.jobs.items()}, "deployments": sorted(self.deployments), "requests": self.requests})
        self.requests.append(f"{method} {path}")
        if headers.get("x-api-key") != self.api_key:
            raise Refusal(401, "invalid API key")
        if path.startswith("/training/v1/rlorTrainerJobs/"):
            return self.gateway(method, path, headers, body)
        payload = json.loads(body) if body else None
        if method == "GET" and path == "/v1/accounts":
            return json_reply({"accounts": [{"name": f"accounts/{ACCOUNT}", "displayName": "rllm-ts fake"}]})
        if path == f"/v1/accounts/{ACCOUNT}/rlorTrainerJobs" and method == "POST":
            return self.create_job(query, payload)
        if path.startswith(f"/v1/accounts/{ACCOUNT}/rlorTrainerJobs/"):
            return self.job(method, path.rsplit("/", 1)[1])
        if path == f"/v1/accounts/{ACCOUNT}/deployments" and method == "POST":
            return self.create_deployment(query, payload)
        if path.startswith(f"/v1/accounts/{ACCOUNT}/deployments/"):
            return self.deployment(method, path.rsplit("/", 1)[1])
        if path == "/hot_load/v1/models/hot_load":
            return self.hot_load(method, headers, payload)
        if path == "/inference/v1/completions" and method == "POST":
            return self.completions(headers, payload)
        raise Refusal(404, f"no route {method} {path}")

    def create_job(self, query: dict, payload: dict) -> tuple[int, dict[str, str], bytes]:
        job_id = (query.get("rlorTrainerJobId") or [""])[0]
        if query.get("skipValidations") != ["true"] or not job_id:
            raise Refusal(400, "query: a manual-path trainer job needs skipValidations=true and rlorTrainerJobId")
        training = payload.get("trainingConfig") or {}
        try:
            config = TrainerJobConfig(
                base_model=training.get("baseModel", ""),
                lora_rank=training.get("loraRank", 0),
                learning_rate=training.get("learningRate", 1e-5),
                display_name=payload.get("displayName"),
            )
            config.validate()
        except (TypeError, ValueError) as error:
            raise Refusal(400, f"trainingConfig: {error}") from error
        # The SDK's own builder is the judge: the body must be exactly what it writes for these settings.
        check_same_as_sdk(TrainerJobManager._build_trainer_create_payload(config), payload)
        if config.base_model not in self.models:
            raise Refusal(400, f'field "trainingConfig.baseModel": model "{config.base_model}" not found; this account can train {", ".join(self.models)}')
        with self.lock:
            if job_id in self.jobs:
                raise Refusal(409, f"trainer job {job_id} already exists")
            # CREATING, then PENDING, then RUNNING: one state per poll, so a client's progress notices show.
            self.jobs[job_id] = {"name": f"accounts/{ACCOUNT}/rlorTrainerJobs/{job_id}", "states": ["JOB_STATE_PENDING", "JOB_STATE_RUNNING"], "state": "JOB_STATE_CREATING", "trainingConfig": {**payload["trainingConfig"], "maxContextLength": 256}}
        return json_reply(self.job_view(job_id))

    def job_view(self, job_id: str) -> dict:
        job = self.jobs[job_id]
        return {"name": job["name"], "state": job["state"], "serviceMode": True, "trainingConfig": job["trainingConfig"]}

    def job(self, method: str, tail: str) -> tuple[int, dict[str, str], bytes]:
        job_id, _, verb = tail.partition(":")
        with self.lock:
            if job_id not in self.jobs:
                raise Refusal(404, f"trainer job {job_id} not found")
            job = self.jobs[job_id]
            if method == "GET":
                if job["states"]:
                    job["state"] = job["states"].pop(0)
                return json_reply(self.job_view(job_id))
            if method == "DELETE":
                del self.jobs[job_id]
                return json_reply({})
            if method == "POST" and verb == "resume":
                job["state"] = "JOB_STATE_RUNNING"
                return json_reply(self.job_view(job_id))
        raise Refusal(405, f"{method} on a trainer job")

    def gateway(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, str], bytes]:
        parts = path.split("/")
        # /training/v1/rlorTrainerJobs/{account}/{job}/api/v1/{route}
        account, job_id, route = parts[4], parts[5], "/".join(parts[8:])
        with self.lock:
            running = account == ACCOUNT and self.jobs.get(job_id, {}).get("state") == "JOB_STATE_RUNNING"
        if not running:
            raise Refusal(404, f"no running trainer job {account}/{job_id}")
        if route not in GATEWAY_BODIES:
            raise Refusal(404, f"the trainer gateway has no /api/v1/{route}")
        if route == "healthz":
            return json_reply({"status": "ok"})
        if GATEWAY_BODIES[route] is not None:
            if "json" not in headers.get("content-type", ""):
                raise Refusal(415, f"/api/v1/{route} takes JSON (the SDK refuses the protobuf transport)")
            check_gateway_body(route, json.loads(body))
        forwarded = {name: value for name, value in headers.items() if name in ("content-type", "accept")}
        reply = self.tinker.request(method, route, content=self.to_tinker(route, body) if body else None, headers=forwarded)
        content = self.from_tinker(route, reply.content) if reply.status_code == 200 else reply.content
        return reply.status_code, {"content-type": reply.headers.get("content-type", "application/json")}, content

    def create_deployment(self, query: dict, payload: dict) -> tuple[int, dict[str, str], bytes]:
        deployment_id = (query.get("deploymentId") or [""])[0]
        try:
            config = DeploymentConfig(
                deployment_id=deployment_id,
                base_model=payload.get("baseModel", ""),
                description=payload.get("description"),
                min_replica_count=payload.get("minReplicaCount", 0),
                max_replica_count=payload.get("maxReplicaCount", 1),
                hot_load_trainer_job=payload.get("hotLoadTrainerJob"),
                for_training=payload.get("forTraining", False),
            )
            expected = DeploymentManager._build_deployment_body(config)
        except (TypeError, ValueError) as error:
            raise Refusal(400, f"deployment: {error}") from error
        check_same_as_sdk(expected, payload)
        job_id = str(payload.get("hotLoadTrainerJob", "")).rsplit("/", 1)[-1]
        with self.lock:
            if job_id not in self.jobs:
                raise Refusal(400, f'field "hotLoadTrainerJob": no trainer job {payload.get("hotLoadTrainerJob")}')
            self.deployments[deployment_id] = {"name": f"accounts/{ACCOUNT}/deployments/{deployment_id}", "baseModel": payload["baseModel"], "states": ["READY"], "state": "CREATING", "identity": None, "session": None}
        return json_reply({"name": f"accounts/{ACCOUNT}/deployments/{deployment_id}", "state": "CREATING"})

    def deployment(self, method: str, deployment_id: str) -> tuple[int, dict[str, str], bytes]:
        with self.lock:
            if deployment_id not in self.deployments:
                raise Refusal(404, f"deployment {deployment_id} not found")
            deployment = self.deployments[deployment_id]
            if method == "GET":
                if deployment["states"]:
                    deployment["state"] = deployment["states"].pop(0)
                return json_reply({"name": deployment["name"], "state": deployment["state"], "baseModel": deployment["baseModel"], "enableHotLoad": True})
            if method == "DELETE":
                del self.deployments[deployment_id]
                return json_reply({})
        raise Refusal(405, f"{method} on a deployment")

    def hot_load_target(self, headers: dict[str, str]) -> dict:
        name = headers.get("fireworks-deployment", "")
        deployment = self.deployments.get(name.rsplit("/", 1)[-1])
        if deployment is None or deployment["name"] != name:
            raise Refusal(404, f'header "fireworks-deployment": no deployment {name or "(missing)"}')
        if headers.get("fireworks-model") != deployment["baseModel"]:
            raise Refusal(400, f'header "fireworks-model": {headers.get("fireworks-model")}, the deployment serves {deployment["baseModel"]}')
        if headers.get("authorization") != f"Bearer {self.api_key}":
            raise Refusal(401, "hot load needs the key as a Bearer token")
        return deployment

    def hot_load(self, method: str, headers: dict[str, str], payload: dict | None) -> tuple[int, dict[str, str], bytes]:
        deployment = self.hot_load_target(headers)
        if method == "GET":
            return json_reply({"replicas": [{"current_snapshot_identity": deployment["identity"], "readiness": True, "loading_state": {"stage": "done"}}]})
        if not isinstance(payload, dict) or set(payload) - {"identity", "reset_prompt_cache", "incremental_snapshot_metadata"} or not isinstance(payload.get("identity"), str):
            raise Refusal(400, 'hot load body: {"identity": str, "reset_prompt_cache"?: bool} (DeploymentManager.hotload)')
        session = self.sampling_session_on({"model_path": payload["identity"]})
        deployment.update(identity=payload["identity"], session=session)
        return json_reply({})

    def completions(self, headers: dict[str, str], payload: dict) -> tuple[int, dict[str, str], bytes]:
        if headers.get("authorization") != f"Bearer {self.api_key}":
            raise Refusal(401, "inference needs the key as a Bearer token")
        params = check_completion_params(payload)
        deployment = self.deployments.get(str(params["model"]).rsplit("/", 1)[-1])
        if deployment is None or deployment["name"] != params["model"] or deployment["state"] != "READY":
            raise Refusal(404, f'field "model": no ready deployment {params["model"]}')
        if deployment["session"] is None:
            deployment["session"] = self.sampling_session_on({"base_model": self.tinker_model()})
        prompt = list(payload["prompt"])
        result = self.tinker_future("asample", {
            "sampling_session_id": deployment["session"], "seq_id": len(self.requests), "num_samples": payload.get("n", 1),
            "prompt": {"chunks": [{"type": "encoded_text", "tokens": prompt}]},
            "sampling_params": {"max_tokens": payload.get("max_tokens", 16), "temperature": payload.get("temperature", 1.0), "top_p": payload.get("top_p", 1.0), "top_k": -1, **({"seed": payload["seed"]} if "seed" in payload else {})},
            "topk_prompt_logprobs": 0, "topk_sample_logprobs": 0, "prompt_alt_tokens_k": 0, "type": "sample",
        })
        choices = []
        for index, sequence in enumerate(result["sequences"]):
            # Token text is left empty: the fake has no tokenizer, and token-in, token-out clients read the ids.
            content = [{"token": "", "bytes": [], "logprob": logprob, "sampling_logprob": logprob, "text_offset": 0, "token_id": token}
                       for token, logprob in zip(sequence["tokens"], sequence.get("logprobs") or [])]
            choices.append({
                "index": index, "text": "", "finish_reason": "length" if sequence["stop_reason"] == "length" else "stop",
                "raw_output": {"completion": "", "prompt_fragments": prompt, "prompt_token_ids": prompt, "completion_token_ids": sequence["tokens"]},
                "logprobs": {"content": content},
            })
        completion_tokens = sum(len(sequence["tokens"]) for sequence in result["sequences"])
        reply = {"id": f"cmpl-{uuid.uuid4().hex[:12]}", "object": "text_completion", "created": int(time.time()), "model": params["model"], "choices": choices,
                 "usage": {"prompt_tokens": len(prompt), "completion_tokens": completion_tokens, "total_tokens": len(prompt) + completion_tokens}}
        # The fake's own answer is held to the SDK's response type too.
        CompletionCreateResponse.model_validate(reply)
        return json_reply(reply)


def json_reply(value: dict, status: int = 200) -> tuple[int, dict[str, str], bytes]:
    return status, {"content-type": "application/json"}, json.dumps(value).encode()


def make_handler(fake: FakeFireworks) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:  # quiet: the tests read stderr for the address
            return

        def respond(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {name.lower(): value for name, value in self.headers.items()}
            try:
                status, reply_headers, content = fake.handle(self.command, self.path, headers, body)
            except Refusal as refusal:
                status, reply_headers, content = json_reply({"error": {"message": refusal.message, "code": refusal.status}}, refusal.status)
            except json.JSONDecodeError as error:
                status, reply_headers, content = json_reply({"error": {"message": f"the body is not JSON: {error}"}}, 400)
            except Exception as error:  # a defect of the fake: answered as a 500 that says so, and logged
                traceback.print_exc(file=sys.stderr)
                status, reply_headers, content = json_reply({"error": {"message": f"fake fireworks failed: {type(error).__name__}: {error}"}}, 500)
            self.send_response(status)
            for name, value in reply_headers.items():
                self.send_header(name, value)
            self.send_header("content-length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        do_GET = do_POST = do_DELETE = do_PATCH = respond

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tinker-url", required=True)
    parser.add_argument("--api-key", required=True)
    parser.add_argument("--models", default="accounts/fireworks/models/rllm-tiny")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    fake = FakeFireworks(args.tinker_url.rstrip("/"), args.api_key, args.models.split(","))
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(fake))
    print(f"fake fireworks at http://127.0.0.1:{server.server_address[1]}", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:  # SIGINT is how the tests stop it
        pass


if __name__ == "__main__":
    main()
