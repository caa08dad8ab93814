"""The trainer's HTTP client to rllm-ts's batch service (src/training/backends/verl/verl-batch-service.ts).

Standard library only. Every request has a time limit and is retried with capped exponential backoff while the
service is unreachable or answers 5xx/429, for up to ``give_up_after`` seconds: rllm-ts may be rolling out for many
minutes, restarting with ``--resume``, or waiting on this trainer's own weight sync. When a restarted rllm-ts has
forgotten this trainer, the client registers again by itself.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
import uuid
from typing import Any, Callable, Optional

PREFIX = "/bridge/v1"


class BridgeUnavailable(RuntimeError):
    """The batch service stayed unreachable (or kept failing) for longer than ``give_up_after``."""


class BridgeAuthError(RuntimeError):
    """The batch service refused the bearer token (401)."""


class TrainerReplaced(RuntimeError):
    """Another trainer instance registered after this one (409 naming instanceId): this one must exit."""


class BridgeClient:
    """Register, long-poll for work, post results; see the module docstring for the retry policy."""

    def __init__(
        self,
        url: str,
        token: Optional[str] = None,
        instance_id: Optional[str] = None,
        request_timeout: float = 30.0,
        give_up_after: float = 3600.0,
        backoff_start: float = 0.5,
        backoff_cap: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.instance_id = instance_id or str(uuid.uuid4())
        self.request_timeout = request_timeout
        self.give_up_after = give_up_after
        self.backoff_start = backoff_start
        self.backoff_cap = backoff_cap
        self._sleep = sleep
        self._clock = clock
        self._registration: Optional[dict[str, Any]] = None

    def register(self, registration: dict[str, Any]) -> None:
        """Announces this trainer (servedModel, serverAddresses, lengths, globalStep, settings); kept for re-registering."""
        self._registration = {**registration, "instanceId": self.instance_id}
        self._call("POST", f"{PREFIX}/register", self._registration)

    def update_global_step(self, global_step: int) -> None:
        """Keeps the step a re-registration reports in line with the trainer's."""
        if self._registration is not None:
            self._registration["globalStep"] = global_step

    def next_work(self, wait_seconds: float = 30.0) -> Optional[dict[str, Any]]:
        """The next work item, or None when none came within ``wait_seconds`` (the service holds the poll open)."""
        path = f"{PREFIX}/work?instanceId={urllib.request.quote(self.instance_id)}&waitSeconds={wait_seconds:g}"
        return self._call("GET", path, None, timeout=wait_seconds + self.request_timeout)

    def post_result(
        self,
        work_id: str,
        state: str,
        global_step: int,
        metrics: Optional[dict[str, float]] = None,
        checkpoint_path: Optional[str] = None,
        error: Optional[str] = None,
    ) -> None:
        """Reports how a work item ended (state "done" or "failed")."""
        body: dict[str, Any] = {"instanceId": self.instance_id, "state": state, "globalStep": global_step, "metrics": metrics or {}}
        if checkpoint_path is not None:
            body["checkpointPath"] = checkpoint_path
        if error is not None:
            body["error"] = error
        self.update_global_step(global_step)
        self._call("POST", f"{PREFIX}/results/{urllib.request.quote(work_id)}", body)

    def _call(self, method: str, path: str, body: Optional[dict[str, Any]], timeout: Optional[float] = None) -> Any:
        deadline = self._clock() + self.give_up_after
        delay = self.backoff_start
        last_failure = ""
        while True:
            try:
                return self._send(method, path, body, timeout or self.request_timeout)
            except urllib.error.HTTPError as error:
                detail = _error_detail(error)
                if error.code == 401:
                    raise BridgeAuthError(f"{self.url}{path}: 401 {detail['message']}") from None
                if error.code == 409 and detail.get("param") == "instanceId":
                    raise TrainerReplaced(detail["message"]) from None
                if error.code == 409 and self._registration is not None and not path.endswith("/register"):
                    # A restarted rllm-ts knows no trainer yet: register again, then repeat the call.
                    self._send("POST", f"{PREFIX}/register", self._registration, self.request_timeout)
                    continue
                if error.code < 500 and error.code != 429:
                    raise RuntimeError(f"{method} {self.url}{path}: {error.code} {detail['message']}") from None
                last_failure = f"{error.code} {detail['message']}"
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as error:
                last_failure = str(getattr(error, "reason", error))
            if self._clock() + delay > deadline:
                raise BridgeUnavailable(f"{method} {self.url}{path} kept failing for {self.give_up_after:g} s; last: {last_failure}")
            self._sleep(delay)
            delay = min(self.backoff_cap, delay * 2)

    def _send(self, method: str, path: str, body: Optional[dict[str, Any]], timeout: float) -> Any:
        headers = {"accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["content-type"] = "application/json"
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            if reply.status == 204:
                return None
            return json.loads(reply.read().decode("utf-8"))


def _error_detail(error: urllib.error.HTTPError) -> dict[str, Any]:
    try:
        body = json.loads(error.read().decode("utf-8"))
        return {"message": body["error"]["message"], "param": body["error"].get("param")}
    except (ValueError, KeyError, TypeError):
        return {"message": error.reason, "param": None}
