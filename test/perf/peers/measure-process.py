"""Runs argv as a child process and prints {seconds, peakRssMb, status} as JSON on stderr's last line.

peakRssMb is the child's (or its largest descendant's) maximum resident set (getrusage RUSAGE_CHILDREN), not a sum.
"""
import json
import resource
import subprocess
import sys
import time

started = time.perf_counter()
status = subprocess.run(sys.argv[1:]).returncode
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "peakRssMb": peak, "status": status}), file=sys.stderr)
