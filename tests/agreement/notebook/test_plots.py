"""Plots (``agreement.notebook.plots``): each renders to PNG on the example data with the expected bars and
cells, says when it is empty, and keeps up to 50 row labels apart."""

import io
from pathlib import Path

import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from matplotlib.collections import PathCollection  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from agreement.facade import check_agreement, run  # noqa: E402
from agreement.notebook.plots import BAR, CAUSE, CELL, MAX_ROWS, ONE_SIDE, UNCHECKED_GID  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
COUPONS = ROOT / "examples" / "coupons"
RDF = COUPONS / "rdf"
ANSWERS = ROOT / "examples" / "csrbench" / "engine-answers"


def png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    data = buffer.getvalue()
    assert data.startswith(b"\x89PNG")
    return data


def bars(ax, gid=BAR) -> list[Rectangle]:
    """The bars (or strip cells) drawn, not the shading behind them."""
    return [p for p in ax.patches if isinstance(p, Rectangle) and p.get_gid() == gid]


def texts(fig) -> str:
    return " ".join(t.get_text() for t in fig.findobj(matplotlib.text.Text))


@pytest.fixture(scope="module")
def coupons():
    return run(COUPONS / "program.lars", stream=COUPONS / "stream.txt",
               background=COUPONS / "background.lars", unit="1m")


@pytest.fixture(scope="module")
def running_check():
    return check_agreement(RDF / "cqels.rq", stream=RDF / "stream.nt", static=[str(RDF / "static.ttl")], unit="1m",
                 end=50, period="30m")


@pytest.fixture(scope="module")
def recorded_q1():
    return check_agreement(recorded_csparql=ANSWERS / "csparql-answer-1.json",
                 recorded_cqels=ANSWERS / "cqels-answer-1.json", period="10s")


def test_answer_timeline_has_one_bar_per_interval(coupons):
    fig = coupons.plot()
    png(fig)
    [ax] = fig.axes
    [bar] = bars(ax)
    assert (bar.get_x(), bar.get_width()) == (17.5, 6)
    assert [t.get_text() for t in ax.get_yticklabels()] == ['ans(b,"rayban",25)']
    assert ax.get_xlabel() == "time (1m)" and "program.lars" in fig._suptitle.get_text()


def test_answer_timeline_of_several_intervals_and_answer_streams():
    view = run("x :- not y.\ny :- not x, [2] <> p.\nz :- not z, [0] <> q.", stream="3: p\n6: q\n9:")
    fig = view.plot()
    png(fig)
    [ax] = fig.axes
    assert len(bars(ax)) == 4  # x solid twice, x and y hatched once each
    assert sum(1 for b in bars(ax) if b.get_hatch()) == 2
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["holds", "holds in some answer streams", "no answer stream"]
    assert "several answer streams at 3 of 10 time points" in fig._suptitle.get_text()


def test_empty_answer_stream_says_so():
    fig = run("x :- p.", stream="0: q\n5:").plot()
    png(fig)
    assert "empty answer stream" in texts(fig)
    assert bars(fig.axes[0]) == []


def test_input_rate_has_one_bar_per_time_point_with_input(coupons, running_check):
    fig = coupons.plot("input")
    png(fig)
    assert [(b.get_x() + b.get_width() / 2, b.get_height()) for b in bars(fig.axes[0])] == [
        (10, 1), (15, 1), (18, 2)]
    fig = running_check.plot("input")
    png(fig)
    assert [b.get_height() for b in bars(fig.axes[0])] == [3, 3, 2]
    assert fig.axes[0].get_ylabel() == "triples per time point"


def test_input_rate_without_input_says_so(recorded_q1):
    fig = recorded_q1.plot("input")
    png(fig)
    assert "no input" in texts(fig)


def test_agreement_strip_has_one_cell_per_interval(recorded_q1):
    fig = recorded_q1.plot("strip")
    png(fig)
    cells = bars(fig.axes[0], CELL)
    assert len(cells) == 4
    colours = [matplotlib.colors.to_hex(c.get_facecolor()) for c in cells]
    assert colours == ["#2da44e", "#cf222e", "#cf222e", "#cf222e"]
    assert "(10,20]" in texts(fig)  # pulling intervals are left-open


def test_agreement_timeline_marks_both_sides(running_check):
    fig = running_check.plot()
    png(fig)
    [ax] = fig.axes
    csparql, cqels, one_side = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert len(csparql.get_offsets()) == 0 and cqels.get_offsets().tolist() == [[18, 0.15]]
    # the answer only CQELS gave is ringed, the interval labelled with its cause
    assert one_side.get_gid() == ONE_SIDE and one_side.get_offsets().tolist() == [[18, 0.15]]
    assert [t.get_text() for t in ax.texts if t.get_gid() == CAUSE] == ["snapshot-differs"]
    # --to 50 with U = 30: the time points after the pull at 30 were not checked, nor was 0
    # (the first pulling interval (0,30] compares the pushes after 0)
    shades = [p for p in ax.patches if p.get_gid() == UNCHECKED_GID]
    assert [(p.get_x(), p.get_x() + p.get_width()) for p in shades] == [(-0.5, 0.5), (30.5, 50.5)]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["C-SPARQL (pull)", "CQELS (push)", "given by one side only", "pull time",
                      "disagreeing interval", "not checked"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["(:b, :rayban, 25)"]


def test_recorded_timeline_shortens_iris_with_an_obvious_prefix(recorded_q1):
    fig = recorded_q1.plot()
    png(fig)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert all(label.startswith("(ssw:System_C") and len(label) <= 64 for label in labels)
    assert len(set(labels)) == len(labels)
    assert "ssw: = <http://knoesis.wright.edu/ssw/>" in fig.axes[0].get_xlabel()


@pytest.mark.parametrize("count", [50, 60])
def test_up_to_50_rows_do_not_overlap_and_more_are_cut(count):
    stream = "0: " + ", ".join(f"reading(sensor_{i:03d}_{'x' * 30})" for i in range(count)) + "\n4:\n"
    view = run("seen(X) :- [2] <> reading(X).", stream=stream)
    fig = view.plot()
    png(fig)
    [ax] = fig.axes
    ticks = ax.get_yticklabels()
    assert len(ticks) == min(count, MAX_ROWS) and len(bars(ax)) == min(count, MAX_ROWS)
    boxes = sorted((t.get_window_extent() for t in ticks), key=lambda b: b.y0)
    assert all(lower.y1 <= upper.y0 for lower, upper in zip(boxes, boxes[1:]))
    title = fig._suptitle.get_text()
    assert ("first 50 of 60 atoms" in title) == (count > MAX_ROWS)
