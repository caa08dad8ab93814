"""Puts the package on the path so ``pytest integrations/verl`` runs from the repository root without installing it."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
