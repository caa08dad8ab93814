"""Math-Verify (math-verify 0.9.0) over a JSONL file, whole process: rows {id, response, ground_truth} in argv[1]
(ground_truth a string or a list of accepted strings), one {id, isCorrect} line per row to argv[2].

Each side goes through Math-Verify's default parse (LaTeX and plain-expression extraction) and verify, as its README.
"""
import json
import sys

from math_verify import parse, verify

with open(sys.argv[1]) as source, open(sys.argv[2], "w") as sink:
    for line in source:
        if not line.strip():
            continue
        row = json.loads(line)
        truths = row["ground_truth"] if isinstance(row["ground_truth"], list) else [row["ground_truth"]]
        answer = parse(row["response"])
        is_correct = any(verify(parse(truth), answer) for truth in truths)
        sink.write(json.dumps({"id": row["id"], "isCorrect": bool(is_correct)}) + "\n")
