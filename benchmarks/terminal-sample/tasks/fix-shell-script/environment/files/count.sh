#!/bin/bash
# Prints the number of lines of "$1".
wc -l < "$2"
