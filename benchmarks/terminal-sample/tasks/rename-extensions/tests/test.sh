#!/bin/bash
cd /app/notes
if [ "$(ls | tr "\n" " ")" = "a.md b.md c.csv " ] && [ "$(cat a.md)" = "one" ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
