"""Math-Verify (math-verify 0.9.0) over a JSONL file, whole process: rows {id, response, ground_truth} in argv[1]
(ground_truth a string or a list of accepted strings), one {id, isCorrect} line per row to argv[2].

Math-Verify's default parse (LaTeX and plain-expression extraction) and verify, as its README shows: the gold answer
wrapped in $…$ (its LaTeX extraction reads only delimited or boxed LaTeX), the response as it is.
"""
import json
import sys

from math_verify import parse, verify


def gold(truth):
    return truth if "$" in truth or "\\boxed" in truth else f"${truth}$"


with open(sys.argv[1]) as source, open(sys.argv[2], "w") as sink:
    for line in source:
        if not line.strip():
            continue
        row = json.loads(line)
        truths = row["ground_truth"] if isinstance(row["ground_truth"], list) else [row["ground_truth"]]
        answer = parse(row["response"])
        is_correct = any(verify(parse(gold(truth)), answer) for truth in truths)
        sink.write(json.dumps({"id": row["id"], "isCorrect": bool(is_correct)}) + "\n")
