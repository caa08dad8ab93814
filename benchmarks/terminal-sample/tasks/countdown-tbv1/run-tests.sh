#!/bin/bash
# Terminal-Bench v1 runs the tests from $TEST_DIR; its exit status is the verdict. From $TEST_DIR with -I, so that no
# pytest.py, conftest.py or user site the agent left behind is imported.
cd "$TEST_DIR"
python3 -I -m pytest -q -p no:cacheprovider --rootdir="$TEST_DIR" "$TEST_DIR/test_outputs.py" -rA
