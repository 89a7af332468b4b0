"""The logic of LARS: terms, atoms, windows, formulas, rules, programs, streams, text syntax.

This package imports nothing else of the project; the other packages build on it.
"""
