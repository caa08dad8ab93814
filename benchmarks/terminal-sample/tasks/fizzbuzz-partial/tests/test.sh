#!/bin/bash
# Partial credit: the share of the 15 lines that are right, written to reward.json (read before reward.txt).
# -I: a json.py the agent leaves in the working directory is not imported.
python3 -I - <<'PY'
import json
expected = ["FizzBuzz" if i % 15 == 0 else "Fizz" if i % 3 == 0 else "Buzz" if i % 5 == 0 else str(i) for i in range(1, 16)]
try:
    lines = open("/app/fizzbuzz.txt").read().split("\n")
except OSError:
    lines = []
right = sum(1 for index, line in enumerate(expected) if index < len(lines) and lines[index].strip() == line)
json.dump({"reward": right / 15, "lines_right": right}, open("/logs/verifier/reward.json", "w"))
PY
