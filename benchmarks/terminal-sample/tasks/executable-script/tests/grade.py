"""Grades executable-script from a result the agent's code cannot write (docs/terminal-agents.md, "The trusted-reward
rule"): /app/greet.sh runs in a process of its own (agent_code.run_agent_code) for the two names of the instruction's
kind and for names drawn here, so greetings learnt by heart fail; everything it started is killed after each run, and
the reward is written last, over any reward file it left."""
import os
import random
import shutil
import stat
import string
import sys
from pathlib import Path

sys.path.insert(0, "/tests")  # python3 -I leaves the script's folder off sys.path
from agent_code import guard_grader, run_agent_code, stop_agent_code  # noqa: E402

SCRIPT = "/app/greet.sh"
VERIFIER = Path("/logs/verifier")
REWARD_FILES = (VERIFIER / "reward.txt", VERIFIER / "reward.json")


def remove(path):
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def problems():
    """Why greet.sh is not right, or an empty list."""
    try:
        mode = os.stat(SCRIPT).st_mode
    except OSError as error:
        return [f"{SCRIPT}: {error.strerror}"]
    if not stat.S_ISREG(mode) or not os.access(SCRIPT, os.X_OK):
        return [f"{SCRIPT} is not an executable file"]
    draw = random.SystemRandom()
    names = ["Ada", "Linus"] + ["".join(draw.choice(string.ascii_letters) for _ in range(draw.randint(3, 12))) for _ in range(3)]
    found = []
    for name in names:
        run = run_agent_code([SCRIPT, name], cwd="/app")
        # As $(...) in a shell test: trailing newlines do not count, the exit status and stderr do not either.
        if run.timed_out or run.stdout.rstrip("\n") != f"Hello, {name}!":
            found.append(f"greet.sh {name} printed {run.stdout[:200]!r}{' (timed out)' if run.timed_out else ''}")
    return found


guard_grader()
for path in REWARD_FILES:
    remove(path)
found = problems()
stop_agent_code()
print("\n".join(found) if found else "greet.sh greeted every name")
for path in REWARD_FILES:
    remove(path)
REWARD_FILES[0].write_text("0\n" if found else "1\n")
