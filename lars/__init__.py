"""The logic of LARS: terms, atoms, windows, formulas, rules, programs, streams, text syntax.

Read first: :mod:`lars.rules` (rules and programs, the tree every other stage passes on), then
:mod:`lars.formulas` (◇ □ @ and window atoms) and :mod:`lars.windows`; :mod:`lars.parser` and
:mod:`lars.printer` read and write both spellings (``docs/syntax.md``); :mod:`lars.analysis`
finds input and derived predicates, safety and stratification (components by :mod:`lars.graphs`);
:mod:`lars.errors` is the one error hierarchy every package raises; :mod:`lars.lazy` makes a
package's façade names load on first use.

Imports: nothing else of the project, no third-party library; every other package builds on
this one.
"""
