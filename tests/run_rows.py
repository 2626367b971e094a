"""A run's results.csv as the tests read it: a dict per row, the long texts
of its row-text columns (pages_verified, timer) put back from system.json's
row_texts, as memprobe's own reader does (results/csvread.c). A field that
is no id there (an older file's text) is kept as it is.

    import sys; sys.path.insert(0, 'tests'); from run_rows import run_rows
    rows = run_rows('path/to/results.csv')
"""
import csv
import json
import os


def row_texts(csv_path):
    """system.json's row_texts beside csv_path: {column: {id: text}}."""
    path = os.path.join(os.path.dirname(csv_path) or '.', 'system.json')
    try:
        with open(path) as f:
            return json.load(f).get('row_texts', {})
    except (OSError, ValueError):
        return {}


def run_rows(csv_path):
    """The rows of csv_path, each a dict, ids resolved."""
    texts = row_texts(csv_path)
    with open(csv_path, newline='') as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for column, by_id in texts.items():
            if r.get(column) in by_id:
                r[column] = by_id[r[column]]
    return rows
