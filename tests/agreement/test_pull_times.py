"""The pulling instants (i+1)·U inside the timeline (SPEC section 9), at the timeline's edges."""

from __future__ import annotations

import pytest

from agreement.compare import pull_times
from lars.errors import InputError


@pytest.mark.parametrize("period, timeline, expected", [
    pytest.param(5, (0, 9), [5], id="end-just-before-a-pull"),
    pytest.param(5, (0, 10), [5, 10], id="end-on-a-pull"),
    pytest.param(5, (5, 10), [10], id="start-on-a-pull-is-not-an-end"),
    pytest.param(5, (4, 10), [5, 10], id="start-just-before-a-pull"),
    pytest.param(5, (-7, 5), [5], id="negative-start"),
    pytest.param(5, (0, 4), [], id="shorter-than-a-period"),
    pytest.param(1, (0, 3), [1, 2, 3], id="period-of-one-tick"),
])
def test_pull_times(period, timeline, expected):
    assert pull_times(period, timeline) == expected


def test_the_period_must_be_positive():
    with pytest.raises(InputError, match="must be positive"):
        pull_times(0, (0, 10))
