"""Speed and fidelity of pdfthin against other PDF libraries (``python -m benchmarks``).

Kept import-light on purpose: the worker and the cold-start probes import
``benchmarks.extractors`` in fresh processes, and every millisecond spent here would be
charged to the engine being measured.
"""
