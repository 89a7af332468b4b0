"""``--spark always`` without ``--partitions`` says that only the reading ran on Spark
(newcomer finding: a cut run says where its ranges ran, an uncut one said nothing)."""

from __future__ import annotations

import pytest

from agreement.facade import note_spark_reading
from agreement.runplan import Partitioning
from ingest.options import ReadOptions
from ingest.policy import ReadReport


@pytest.mark.parametrize(("spark", "partitions", "said"), [
    ("always", 0, True), ("always", 2, False), ("never", 0, False), ("auto", 0, False)])
def test_note_only_when_spark_reads_an_uncut_run(tmp_path, spark, partitions, said):
    stream = tmp_path / "s.nt"
    stream.write_text('<http://e/a> <http://e/p> <http://e/b> 1\n')
    report = ReadReport()
    note_spark_reading(stream, ReadOptions(spark=spark), Partitioning(partitions), report)
    assert bool(report.notes) is said
    if said:
        assert report.notes == ["note: the stream is read by Spark (local[*]); the program is "
                                "solved in this process (--partitions N also solves time ranges "
                                "as Spark tasks)"]


def test_no_stream_no_note():
    report = ReadReport()
    note_spark_reading(None, ReadOptions(spark="always"), Partitioning(0), report)
    assert report.notes == []
