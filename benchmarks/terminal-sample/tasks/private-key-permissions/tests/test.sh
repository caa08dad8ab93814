#!/bin/bash
if [ "$(stat -c %a /app/id_key 2>/dev/null)" = "600" ] && [ "$(cat /app/id_key 2>/dev/null)" = "not-a-real-key" ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
