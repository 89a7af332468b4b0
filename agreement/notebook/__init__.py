"""Views and plots for Jupyter: what the façade returns, shown as tables and timelines.

Read first: :mod:`agreement.notebook.views` (a program, an answer stream) and
:mod:`agreement.notebook.checkview` (an agreement check). They render HTML through the leaf
:mod:`agreement.notebook.display` and short labels through :mod:`agreement.notebook.labels`;
:mod:`agreement.notebook.plots` (matplotlib, imported only when a plot is drawn) takes plain
data, never a view, so the only arrow between them is views → plots.

Imports: :mod:`agreement`'s comparison modules, :mod:`solver`, :mod:`translate`, :mod:`lars`.
"""
