#!/bin/bash
if [ "$(tr -d " \n" < /app/largest.txt 2>/dev/null)" = "deep/deeper/big.bin" ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
