"""How harbor 0.25.0's own models read task folders, for the parity test: folder paths on stdin (JSON), JSON on stdout.

Per folder: Harbor's Task(...) (harbor.models.task.task) with its TaskConfig, the instruction after Harbor's canary
stripping, and the test and solution scripts Harbor would run; or the error Harbor raises for the folder.
"""
import json
import sys
import warnings
from pathlib import Path

import harbor
from harbor.models.task.task import Task

warnings.simplefilter("ignore", DeprecationWarning)


def view(task_dir):
    try:
        task = Task(Path(task_dir))
    except Exception as error:  # Harbor refuses the folder: the parity test expects rllm to refuse it too.
        return {"error": f"{type(error).__name__}: {error}"}
    config = task.config
    environment = config.environment
    paths = task.paths
    test_path = paths.discovered_test_path
    solve_path = paths.discovered_solve_path
    return {
        "name": config.task.name if config.task else None,
        "instruction": task.instruction,
        "agentTimeoutSec": config.agent.timeout_sec,
        "verifierTimeoutSec": config.verifier.timeout_sec,
        "verifierEnv": config.verifier.env,
        "buildTimeoutSec": environment.build_timeout_sec,
        "dockerImage": environment.docker_image,
        "cpus": environment.cpus,
        "memoryMb": environment.memory_mb,
        "env": environment.env,
        "workdir": environment.workdir,
        "networkMode": environment.network_mode.value,
        "solutionEnv": config.solution.env,
        "metadata": config.metadata,
        "testScript": str(test_path.relative_to(paths.task_dir)) if test_path else None,
        "solutionScript": str(solve_path.relative_to(paths.task_dir)) if solve_path else None,
    }


print(json.dumps({"harbor": harbor.__version__ if hasattr(harbor, "__version__") else None, "tasks": [view(task_dir) for task_dir in json.load(sys.stdin)]}))
