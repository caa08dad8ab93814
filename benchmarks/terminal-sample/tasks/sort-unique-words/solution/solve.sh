#!/bin/bash
cd /app && LC_ALL=C sort -u words.txt > unique.txt
