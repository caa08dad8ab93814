#!/bin/bash
# Run from /tests with -I (no user site, no PYTHON* variables, no current directory on sys.path): a pytest.py or
# conftest.py the agent leaves in /app cannot stand in for the tests. test_stats.py adds /app itself.
cd /tests
if python3 -I -m pytest -q -p no:cacheprovider --rootdir=/tests /tests/test_stats.py > /logs/verifier/pytest.txt 2>&1; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
