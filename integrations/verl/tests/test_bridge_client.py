"""BridgeClient against a real rllm-ts batch service (Node), and against small stdlib servers for its retry rules."""

import json
import os
import socket
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from rllm_verl.bridge_client import BridgeAuthError, BridgeClient, BridgeUnavailable, TrainerReplaced

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SERVER_SCRIPT = os.path.join(ROOT, "test", "training", "backends", "verl", "serve-verl-bridge.ts")

REGISTRATION = {
    "servedModel": "Qwen/Qwen3-0.6B",
    "serverAddresses": ["10.0.0.5:41000", "10.0.0.6:41000"],
    "maxPromptLength": 1024,
    "maxResponseLength": 2048,
    "globalStep": 0,
    "settings": {
        "lossMode": "vanilla",
        "clipRatioLow": 0.2,
        "clipRatioHigh": 0.28,
        "lossAggMode": "token-mean",
        "useKlLoss": False,
        "klLossCoef": 0.001,
        "learningRate": 1e-6,
        "weightDecay": 0.01,
        "gradClip": 1.0,
        "ppoEpochs": 1,
    },
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_trainer_registers_pulls_a_batch_and_reports_through_a_real_rllm_ts_service():
    port = free_port()
    server = subprocess.Popen(
        ["node", "--import", "tsx", SERVER_SCRIPT, "--port", str(port), "--token", "secret"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        # Registering before the service listens: the client retries through the refused connections.
        client = BridgeClient(url, token="secret", request_timeout=10, give_up_after=120)
        client.register(REGISTRATION)
        with pytest.raises(BridgeAuthError):
            BridgeClient(url, token="wrong", give_up_after=5).next_work(wait_seconds=0)

        train = client.next_work(wait_seconds=20)
        assert train["kind"] == "train"
        assert [row["role"] for row in train["rows"]] == ["solver", "judge"]
        assert train["rows"][0]["lossMask"] == [0, 0, 0, 1, 1]
        assert train["rows"][1]["advantage"] == -1
        client.post_result(train["id"], "done", 1, metrics={"loss": 0.25, "logprobMismatchMean": 0.01})

        checkpoint = client.next_work(wait_seconds=20)
        assert checkpoint["kind"] == "checkpoint"
        client.post_result(checkpoint["id"], "done", 1, checkpoint_path="/ckpt/global_step_1")

        stop = client.next_work(wait_seconds=20)
        assert stop["kind"] == "stop"
        client.post_result(stop["id"], "done", 1)

        output, errors = server.communicate(timeout=60)
        assert server.returncode == 0, errors
        lines = [json.loads(line) for line in output.splitlines()]
        assert lines[1]["registered"]["instanceId"] == client.instance_id
        assert lines[1]["registered"]["serverAddresses"] == REGISTRATION["serverAddresses"]
        assert lines[2]["result"]["metrics"] == {"loss": 0.25, "logprobMismatchMean": 0.01}
        assert lines[3]["result"]["checkpointPath"] == "/ckpt/global_step_1"
        assert lines[4]["result"]["state"] == "done"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


class ScriptedHandler(BaseHTTPRequestHandler):
    """Answers each request with the next scripted (status, body, delay) and records the path."""

    script: list = []
    seen: list = []

    def _answer(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        self.seen.append((self.command, self.path.split("?")[0], json.loads(body) if body else None))
        status, reply, delay = self.script.pop(0) if self.script else (204, None, 0)
        if delay:
            threading.Event().wait(delay)
        try:
            self.send_response(status)
            payload = json.dumps(reply).encode() if reply is not None else b""
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client had timed out and gone

    do_GET = _answer
    do_POST = _answer

    def log_message(self, *args) -> None:
        pass


class QuickServer(ThreadingHTTPServer):
    """Closes without waiting for handlers still sleeping on a delayed reply."""

    daemon_threads = True
    block_on_close = False


@pytest.fixture
def scripted():
    ScriptedHandler.script = []
    ScriptedHandler.seen = []
    server = QuickServer(("127.0.0.1", 0), ScriptedHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", ScriptedHandler
    server.shutdown()
    server.server_close()


def error(message, param=None):
    return {"error": {"message": message, "type": "x", "param": param, "code": 0}}


def test_a_request_that_times_out_is_sent_again(scripted):
    url, handler = scripted
    # Later answers are all prompt, so a slow machine that times out once more still gets "s1".
    handler.script = [(200, {"kind": "stop", "id": "late"}, 5.0)] + [(200, {"kind": "stop", "id": "s1"}, 0)] * 5
    client = BridgeClient(url, request_timeout=1.0, give_up_after=60, backoff_start=0.01)
    assert client.next_work(wait_seconds=0)["id"] == "s1"
    assert len(handler.seen) >= 2


def test_server_errors_are_retried_with_backoff_until_the_limit(scripted):
    url, handler = scripted
    handler.script = [(503, error("syncing"), 0)] * 10
    naps = []
    now = [0.0]

    def sleep(seconds):
        naps.append(seconds)
        now[0] += seconds

    client = BridgeClient(url, give_up_after=10, backoff_start=1, backoff_cap=4, sleep=sleep, clock=lambda: now[0])
    with pytest.raises(BridgeUnavailable, match="503 syncing"):
        client.next_work(wait_seconds=0)
    assert naps == [1, 2, 4]


def test_a_restarted_service_that_forgot_the_trainer_gets_it_registered_again(scripted):
    url, handler = scripted
    handler.script = [(200, {"ok": True}, 0), (409, error("no trainer registered"), 0), (200, {"ok": True}, 0), (204, None, 0)]
    client = BridgeClient(url, give_up_after=5)
    client.register(REGISTRATION)
    assert client.next_work(wait_seconds=0) is None
    assert [path for _, path, _ in handler.seen] == ["/bridge/v1/register", "/bridge/v1/work", "/bridge/v1/register", "/bridge/v1/work"]
    assert handler.seen[2][2]["instanceId"] == client.instance_id


def test_a_replaced_trainer_stops(scripted):
    url, handler = scripted
    handler.script = [(409, error('trainer instance "a" was replaced by "b"', "instanceId"), 0)]
    with pytest.raises(TrainerReplaced):
        BridgeClient(url, give_up_after=5).next_work(wait_seconds=0)
