#!/bin/bash
# Terminal-Bench v1 runs the tests from $TEST_DIR; its exit status is the verdict.
python3 -m pytest -q -p no:cacheprovider "$TEST_DIR/test_outputs.py" -rA
