"""Grades fix-shell-script from a result the agent's code cannot write (docs/terminal-agents.md, "The trusted-reward
rule"): /app/count.sh runs under bash in a process of its own (agent_code.run_agent_code) on data.txt and on files
with a number of lines drawn here, so counts learnt by heart fail; everything it started is killed after each run, and
the reward is written last, over any reward file it left."""
import os
import random
import shutil
import string
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, "/tests")  # python3 -I leaves the script's folder off sys.path
from agent_code import guard_grader, run_agent_code, stop_agent_code  # noqa: E402

VERIFIER = Path("/logs/verifier")
REWARD_FILES = (VERIFIER / "reward.txt", VERIFIER / "reward.json")


def remove(path):
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def drawn_files(folder):
    """(path, line count) of files with random words, world-readable: as root the agent's code runs as nobody."""
    draw = random.SystemRandom()
    os.chmod(folder, 0o755)
    files = []
    for index, count in enumerate([draw.randint(0, 2), draw.randint(3, 9), draw.randint(10, 60)]):
        path = os.path.join(folder, f"lines-{index}.txt")
        with open(path, "w") as file:
            file.writelines("".join(draw.choice(string.ascii_lowercase) for _ in range(draw.randint(1, 8))) + "\n" for _ in range(count))
        os.chmod(path, 0o644)
        files.append((path, count))
    return files


def problems(folder):
    """Why count.sh is not right, or an empty list."""
    found = []
    for path, count in [("data.txt", 5), *drawn_files(folder)]:
        run = run_agent_code(["bash", "count.sh", path], cwd="/app")
        # As the instruction's example: blanks and trailing newlines do not count, the exit status does not either.
        if run.timed_out or run.stdout.replace(" ", "").rstrip("\n") != str(count):
            found.append(f"count.sh {path} printed {run.stdout[:200]!r} for {count} lines{' (timed out)' if run.timed_out else ''}")
    return found


guard_grader()
for path in REWARD_FILES:
    remove(path)
# Under /tmp, not $TMPDIR: docker's root verifier has a TMPDIR only root can enter, and there the script runs as nobody.
with tempfile.TemporaryDirectory(dir="/tmp") as folder:
    found = problems(folder)
stop_agent_code()
print("\n".join(found) if found else "count.sh counted every file")
for path in REWARD_FILES:
    remove(path)
REWARD_FILES[0].write_text("0\n" if found else "1\n")
