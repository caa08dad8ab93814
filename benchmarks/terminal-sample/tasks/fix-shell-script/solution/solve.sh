#!/bin/bash
cd /app && sed -i 's/"\$2"/"\$1"/' count.sh
