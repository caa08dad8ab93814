#!/bin/bash
cd /app
printf "x\ny\nz\n" > /tmp/three.txt
if [ "$(bash count.sh /tmp/three.txt 2>/dev/null | tr -d " ")" = "3" ] && [ "$(bash count.sh data.txt 2>/dev/null | tr -d " ")" = "5" ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
