#!/bin/bash
# The agent's script runs only in processes of its own, and grade.py writes the reward once they have all ended
# (docs/terminal-agents.md, "The trusted-reward rule"). exec: no shell of ours stays for the agent's code to read or
# rewrite; -I: no user site, no PYTHON* variables, no current directory on sys.path.
cd /tests && exec python3 -I /tests/grade.py
