"""The notebook plot of a recorded relation stream against the expected one."""

from agreement.notebook.judgeplot import relations_plot


def test_two_rows_sizes_and_the_mismatch_line():
    fig = relations_plot([(2, 1), (4, 2)], [(2, 1), (4, 1), (4, 1)], 4)
    ax = fig.axes[0]
    assert [label.get_text() for label in ax.get_yticklabels()] == ["expected", "recorded"]
    assert sorted(text.get_text() for text in ax.texts) == ["1", "1", "1+1", "2"]
    assert [line.get_xdata()[0] for line in ax.get_lines()] == [4]
