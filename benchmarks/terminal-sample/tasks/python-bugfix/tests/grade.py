"""Grades python-bugfix from a result the agent's code cannot write (docs/terminal-agents.md, "The trusted-reward
rule"): pytest runs test_stats.py with a JUnit report; once pytest and everything the agent's code started have ended,
the reward is 1 only when pytest exited 0 and its report lists exactly the expected tests, each passed. An early exit,
a killed pytest or fewer tests than expected is a 0. Stale reward files are removed before the reward is written."""
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

sys.path.insert(0, "/tests")  # python3 -I leaves the script's folder off sys.path
from agent_code import guard_grader, stop_agent_code  # noqa: E402

EXPECTED_TESTS = {"test_mean_of_values", "test_mean_of_empty_list", "test_mean_of_random_lists", "test_spread"}
VERIFIER = Path("/logs/verifier")
REPORT = VERIFIER / "junit.xml"
REWARD_FILES = (VERIFIER / "reward.txt", VERIFIER / "reward.json")


def remove(path):
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def failed_tests(report):
    """Why the report is not a full pass of EXPECTED_TESTS, or an empty list."""
    try:
        root = ElementTree.parse(report).getroot()
    except (OSError, ElementTree.ParseError) as error:
        return [f"no readable JUnit report: {error}"]
    cases = list(root.iter("testcase"))
    names = [case.get("name") for case in cases]
    problems = [f"{case.get('name')}: {child.tag}" for case in cases for child in case if child.tag in ("failure", "error", "skipped")]
    if sorted(names) != sorted(EXPECTED_TESTS):
        problems.append(f"ran {sorted(names)}, expected {sorted(EXPECTED_TESTS)}")
    for suite in root.iter("testsuite"):
        counts = {key: suite.get(key) for key in ("tests", "failures", "errors", "skipped")}
        if counts != {"tests": str(len(EXPECTED_TESTS)), "failures": "0", "errors": "0", "skipped": "0"}:
            problems.append(f"suite counts {counts}")
    return problems


guard_grader()
for path in (REPORT, *REWARD_FILES):
    remove(path)
pytest = subprocess.run([sys.executable, "-I", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir=/tests", f"--junitxml={REPORT}", "/tests/test_stats.py"], cwd="/tests", timeout=45)
stop_agent_code()
problems = ([] if pytest.returncode == 0 else [f"pytest exited {pytest.returncode}"]) + failed_tests(REPORT)
print("\n".join(problems) if problems else f"all {len(EXPECTED_TESTS)} tests passed")
for path in REWARD_FILES:
    remove(path)
REWARD_FILES[0].write_text("0\n" if problems else "1\n")
