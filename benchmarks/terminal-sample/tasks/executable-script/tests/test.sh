#!/bin/bash
if [ -x /app/greet.sh ] && [ "$(/app/greet.sh Ada 2>/dev/null)" = "Hello, Ada!" ] && [ "$(/app/greet.sh Linus 2>/dev/null)" = "Hello, Linus!" ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
