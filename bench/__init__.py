"""gamelog benchmarks: every case measured side by side with its baseline.

Run ``python -m bench`` (or ``make bench``); see bench/README.md.
"""
