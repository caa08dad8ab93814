#!/bin/bash
if [ "$(tr -d " \n" < /app/total.txt 2>/dev/null)" = "510" ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
