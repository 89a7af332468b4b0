"""Answer sinks (solver/sinks.py): each format read back gives the answers written, and a long
answer stream is written as it comes, never gathered first."""

from __future__ import annotations

import csv
import io
import json
import os
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lars.atoms import Atom
from lars.errors import InputError
from lars.parser import parse_atom
from lars.terms import Iri, Name, Number, String
from solver.answers import TimePointAnswer, canonical
from solver.formats import answer_json_text, atom_json
from solver.sinks import answer_json, open_sink
from tests.strategies import ground_atoms

X, Y = Atom("x"), Atom("y")
ANS = Atom("ans", (Name("b"), String("rayban"), Number(25)))
ODD = Atom("q", (Iri("http://ex.org/a"), String('say "hi", ünï\n'), Number(-3)))
ANSWERS = [
    TimePointAnswer(0, (frozenset(),)),
    TimePointAnswer(1, ()),
    TimePointAnswer(2, canonical([frozenset({(X, 2), (ANS, 2)}), frozenset({(Y, 1)})])),
    TimePointAnswer(3, (frozenset({(ODD, 3), (Atom("z", (Name("a"),)), 5)}),)),
]
FORMATS = ["jsonl", "csv", "parquet"]


def needs(format: str) -> None:
    if format == "parquet":
        pytest.importorskip("pyarrow")


# --- reading back ----------------------------------------------------------------------------

def from_json_lines(text: str) -> list[TimePointAnswer]:
    answers = []
    for line in text.splitlines():
        record = json.loads(line)
        streams = tuple(frozenset((parse_atom(a["atom"]), a["time"]) for a in stream)
                        for stream in record["answer_streams"])
        answers.append(TimePointAnswer(record["time"], streams))
    return answers


def from_rows(rows: list[dict]) -> list[TimePointAnswer]:
    """Answers from ``csv``/``parquet`` rows (cells as strings or typed values; empty = None)."""
    by_time: dict[int, dict[int, set]] = {}
    for row in rows:
        streams = by_time.setdefault(int(row["time"]), {})
        if row["stream"] in (None, ""):
            continue
        pairs = streams.setdefault(int(row["stream"]), set())
        if row["atom"] not in (None, ""):
            atom = parse_atom(row["atom"])
            assert atom.predicate == row["predicate"]
            assert json.loads(row["args"]) == atom_json(atom, 0)["args"]
            pairs.add((atom, int(row["held"])))
    return [TimePointAnswer(t, tuple(frozenset(streams[i]) for i in sorted(streams)))
            for t, streams in by_time.items()]


def read_back(path, format: str) -> list[TimePointAnswer]:
    if format == "jsonl":
        return from_json_lines(path.read_text(encoding="utf-8"))
    if format == "csv":
        with open(path, encoding="utf-8", newline="") as file:
            return from_rows(list(csv.DictReader(file)))
    import pyarrow.parquet as pq
    return from_rows(pq.read_table(path).to_pylist())


# --- each format -------------------------------------------------------------------------------

@pytest.mark.parametrize("format", FORMATS)
def test_round_trip(tmp_path, format):
    needs(format)
    path = tmp_path / f"answers.{format}"
    with open_sink(path, format) as sink:
        for answer in ANSWERS:
            sink.write(answer)
    assert read_back(path, format) == ANSWERS


def test_json_lines_one_object_per_time_point(tmp_path):
    path = tmp_path / "a.jsonl"
    with open_sink(str(path), "jsonl") as sink:
        assert sink.write_all(ANSWERS) == 4
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines[:2] == [{"time": 0, "answer_streams": [[]]}, {"time": 1, "answer_streams": []}]
    assert lines[2]["answer_streams"] == [[atom_json(Y, 1)], [atom_json(ANS, 2), atom_json(X, 2)]]


def test_csv_rows(tmp_path):
    path = tmp_path / "a.csv"
    with open_sink(path, "csv") as sink:
        sink.write_all(ANSWERS[:3])
    assert path.read_text(encoding="utf-8").splitlines() == [
        "time,stream,atom,held,predicate,args",
        "0,0,,,,",
        "1,,,,,",
        "2,0,y,1,y,[]",
        '2,1,"ans(b,""rayban"",25)",2,ans,"[{""type"": ""name"", ""value"": ""b""}, '
        '{""type"": ""string"", ""value"": ""rayban""}, {""type"": ""number"", ""value"": 25}]"',
        "2,1,x,2,x,[]",
    ]


def test_parquet_columns_and_row_groups(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "a.parquet"
    with open_sink(path, "parquet", row_group_size=2) as sink:
        sink.write_all(ANSWERS)
    file = pq.ParquetFile(path)
    assert file.schema_arrow.names == ["time", "stream", "atom", "held", "predicate", "args"]
    assert [str(t) for t in file.schema_arrow.types] == ["int64", "int32", "string", "int64",
                                                         "string", "string"]
    assert file.metadata.num_rows == 7 and file.num_row_groups == 4
    assert file.read().to_pylist()[1] == {"time": 1, "stream": None, "atom": None, "held": None,
                                          "predicate": None, "args": None}


@pytest.mark.parametrize("format", ["jsonl", "csv"])
def test_dash_writes_text_to_stdout(capsys, format):
    with open_sink("-", format) as sink:
        sink.write_all(ANSWERS)
    out = capsys.readouterr().out
    rows = from_json_lines(out) if format == "jsonl" else from_rows(list(csv.DictReader(io.StringIO(out))))
    assert rows == ANSWERS
    assert not sys.stdout.closed


def test_dash_writes_parquet_to_stdout(capsysbinary):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq
    with open_sink("-", "parquet") as sink:
        sink.write_all(ANSWERS)
    table = pq.read_table(pa.BufferReader(capsysbinary.readouterr().out))
    assert from_rows(table.to_pylist()) == ANSWERS


@pytest.mark.parametrize("format", FORMATS)
def test_an_interrupted_run_leaves_the_old_file_as_it_was(tmp_path, format):
    needs(format)
    path = tmp_path / f"a.{format}"
    path.write_bytes(b"old answers")
    with pytest.raises(KeyboardInterrupt) as raised:
        with open_sink(path, format) as sink:
            sink.write_all(ANSWERS[:2])
            raise KeyboardInterrupt
    assert path.read_bytes() == b"old answers"
    assert list(tmp_path.iterdir()) == [path]
    assert raised.value.__notes__ == [f"{path}: left as it was"]


def test_a_failed_run_writes_no_new_file(tmp_path):
    path = tmp_path / "a.csv"
    with pytest.raises(InputError) as raised:
        with open_sink(path, "csv") as sink:
            sink.write_all(ANSWERS[:2])
            raise InputError("bad line")
    assert list(tmp_path.iterdir()) == []
    assert raised.value.__notes__ == [f"{path}: not written"]


def test_a_finished_run_replaces_the_file_keeping_its_permissions(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text("old")
    path.chmod(0o640)
    with open_sink(path, "csv") as sink:
        sink.write_all(ANSWERS)
    assert read_back(path, "csv") == ANSWERS
    assert path.stat().st_mode & 0o777 == 0o640
    assert list(tmp_path.iterdir()) == [path]


# --- laziness ----------------------------------------------------------------------------------

@pytest.mark.parametrize("format", FORMATS)
def test_a_long_answer_stream_is_written_as_it_comes(tmp_path, format):
    """10^5 time points: the first bytes reach the file long before the generator is exhausted
    (after one buffer of text, or one row group of Parquet)."""
    needs(format)
    path, total = tmp_path / f"long.{format}", 10**5
    consumed, first_growth = [0], []

    def answers(empty_size: int):
        [written] = tmp_path.glob(f".long.{format}.*.part")  # the file renamed onto path at the end
        for t in range(total):
            if not first_growth and os.path.getsize(written) > empty_size:
                first_growth.append(consumed[0])
            consumed[0] += 1
            yield TimePointAnswer(t, (frozenset({(Atom("p", (Number(t),)), t)}),))

    with open_sink(path, format) as sink:
        assert sink.write_all(answers(0)) == total
    assert first_growth and first_growth[0] <= 10_001
    assert rows_in(path, format) == total


def rows_in(path, format: str) -> int:
    if format == "parquet":
        import pyarrow.parquet as pq
        return pq.ParquetFile(path).metadata.num_rows
    with open(path, encoding="utf-8") as file:
        return sum(1 for _ in file) - (format == "csv")


# --- errors ------------------------------------------------------------------------------------

def test_unknown_format():
    with pytest.raises(InputError, match=r"unknown output format 'jsnol': expected one of jsonl, "
                                         r"csv, parquet \(did you mean 'jsonl'\?\)"):
        with open_sink("-", "jsnol"):
            pass


def test_a_file_that_cannot_be_written(tmp_path):
    target = tmp_path / "missing" / "a.csv"
    with pytest.raises(InputError, match=f"{target}: error: cannot write the file: its folder .* does not exist"):
        with open_sink(target, "csv"):
            pass


def test_parquet_without_pyarrow(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(InputError, match="the parquet format needs pyarrow") as raised:
        with open_sink(tmp_path / "a.parquet", "parquet"):
            pass
    assert raised.value.hint.startswith("pip install pyarrow")
    assert not (tmp_path / "a.parquet").exists()


@given(st.lists(st.frozensets(st.tuples(ground_atoms(), st.integers(-3, 9)), max_size=4), max_size=3),
       st.integers(0, 9))
def test_jsonl_lines_put_together_are_the_json_of_the_answer(streams, time):
    """The jsonl sink's line, assembled from remembered pieces, is ``json.dumps`` of the answer."""
    answer = TimePointAnswer(time, tuple(streams))
    assert answer_json_text(answer) == json.dumps(answer_json(answer), ensure_ascii=False)
