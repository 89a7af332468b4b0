"""The byte ranges of a stream file read past a range's last time point (``plan_ranges``'s
``after``): ``lars agree``'s workers compare the answers of the pulling interval after their
range too (:mod:`agreement.agree.rangecheck`). Each range must read exactly the lines of its
history, its own time points and the ``after`` ticks past them — no fewer, or an explanation
at the range's edge would miss answers; none further, or the workers read the file twice over."""

from __future__ import annotations

from itertools import accumulate

from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.ranges import plan_ranges
from lars.streams import Timeline


def times_read(lines: list[int], start: int, end: int, width: int) -> list[int]:
    """The time points of the lines in bytes ``[start, end)`` (all lines ``width`` bytes long)."""
    return lines[start // width:end // width]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=40), st.integers(1, 5),
       st.integers(0, 4), st.integers(0, 7), st.integers(0, 5))
def test_ranges_read_their_history_span_and_after(tmp_path_factory, steps, parts, history, after, tail):
    """Random streams (time points ascending by 0–6 ticks, several lines per time point), cut
    into 1–5 ranges: each reads the lines from ``span.start - history`` (at least the line
    before its own first one) to ``span.end + after``, the last range to the file's end."""
    lines = list(accumulate(steps))
    text = "".join(f'<http://ex.org/s> <http://ex.org/p> "{i:04}" <http://ex.org/g> {t:04}\n'
                   for i, t in enumerate(lines))
    width = len(text.splitlines(keepends=True)[0])
    path = tmp_path_factory.mktemp("after") / "s.nt"
    path.write_text(text)
    line = Timeline(0, lines[-1] + tail)
    planned = plan_ranges(path, parts, line, history, after=after)
    spans = [span for span, _ in planned]
    assert spans[0].start == line.start and spans[-1].end == line.end
    assert all(a.end + 1 == b.start for a, b in zip(spans, spans[1:]))
    for index, (span, (start, end)) in enumerate(planned):
        read = times_read(lines, start, end, width)
        wanted = [t for t in lines if span.start - history <= t <= span.end + after]
        if index == len(planned) - 1:
            assert end == len(text)
        else:
            assert [t for t in read if t >= span.start - history] == wanted
            assert read == [] or read[-1] <= span.end + after  # nothing past the ticks asked for
        assert set(wanted) <= set(read) or not wanted

