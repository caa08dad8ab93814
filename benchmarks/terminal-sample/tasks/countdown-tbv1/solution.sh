#!/bin/bash
seq 10 -1 1 > /app/countdown.txt
