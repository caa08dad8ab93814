#!/bin/bash
if [ "$(cat /app/unique.txt 2>/dev/null)" = "$(printf "Pear\napple\nbanana\nfig\npear")" ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
