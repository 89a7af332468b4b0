"""The names the ``lars`` options offer (agreement/cli/choices.py, plain data so that building
the parser loads nothing behind them) are exactly those the implementing tables know."""

from __future__ import annotations

import pytest

from agreement.check.judge import COMPARISONS
from agreement.cli import choices
from solver.sinks import SINKS
from solver.strategies import STRATEGIES
from translate.engines import ENGINES
from translate.results import FORMATS
from translate.rspwindows import READINGS


@pytest.mark.parametrize("offered, implemented", [
    pytest.param(choices.ENGINES, tuple(ENGINES), id="engines"),
    pytest.param(choices.READINGS, READINGS, id="window-readings"),
    pytest.param(choices.RESULT_FORMATS, FORMATS, id="result-formats"),
    pytest.param(choices.STRATEGIES, STRATEGIES, id="strategies"),
    pytest.param(choices.SINKS, tuple(SINKS), id="sinks"),
    pytest.param(choices.COMPARISONS, COMPARISONS, id="check-comparisons"),
])
def test_the_options_offer_what_is_implemented(offered, implemented):
    assert offered == implemented
