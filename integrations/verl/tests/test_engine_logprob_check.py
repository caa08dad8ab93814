"""checks/engine_logprob_check.py passes here on CPU: sampled log-probs recomputed, verl's loss finite, one update."""

import importlib.util
import os


def test_engine_logprob_check_passes_on_cpu(capsys):
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "checks", "engine_logprob_check.py")
    spec = importlib.util.spec_from_file_location("engine_logprob_check", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main() == 0, capsys.readouterr().out
