"""Slicing streams into per-instant fact sets: Spark (ingest/slicing.py) against plain Python.

The differential tests run the Spark job and the in-process slicer on the same input and expect
equal slices, equal reports and equal errors; the lazy Spark reader (``iter_slice_stream``) is held
to the same, and to what it may yield before an error. They share one Spark session
(``spark_master``).
"""

from __future__ import annotations

import functools
import random
import subprocess
import sys
from pathlib import Path

import pytest
from rdflib import URIRef

from lars.errors import InputError, LarsError, ParseError
from lars.parser import parse_stream_line
from ingest.policy import ReadPolicy, ReadReport, group_by_time, parse_lines
from ingest.rdffiles import parse_ntriples_line, parse_turtle_document, turtle_files

from solver import spark
from ingest.slicing import iter_slice_stream, slice_in_process, slice_stream

CSRBENCH = Path(__file__).parents[2] / "examples" / "csrbench" / "stream"
EX = "http://ex.org/"
NTRIPLES = functools.partial(parse_ntriples_line, default_stream=URIRef(EX + "streams/default"))


def generated_stream(seed: int, lines: int = 300, late: float = 0.0, bad: float = 0.0,
                     streams: int = 3) -> str:
    """A timestamped N-Triples stream: ``streams`` streams (at most three, interleaved), several
    triples per time point, and (with ``late``/``bad``) lines that go back in time or do not
    parse."""
    rng, time, out = random.Random(seed), 0, []
    for number in range(lines):
        time += rng.choice([0, 0, 0, 1, 2])
        stamp = max(0, time - rng.randint(1, 5)) if rng.random() < late else time
        stream = rng.choice(["", f" <{EX}s1>", f" <{EX}s2>"][:streams])
        triple = f"<{EX}o{number}> <{EX}p{rng.randint(0, 3)}> \"{rng.randint(0, 99)}\"{stream}"
        if rng.random() < bad:
            out.append(rng.choice([f"{triple} t{stamp}", triple, f"\"x\" {triple} {stamp}"]))
        else:
            out.append(rng.choice([f"{triple} {stamp}", f"{triple} . {stamp}"]))
        if rng.random() < 0.05:
            out.append(rng.choice(["", "# a comment"]))
    return "\n".join(out) + "\n"


def write(tmp_path: Path, text: str, name: str = "s.nt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def both(paths, parser, master, policy=ReadPolicy(), **options):
    """Slices and reports from the Spark job and the local slicer (or the errors they raise)."""
    results = []
    for run in (functools.partial(slice_stream, master=master, partitions=options.pop("partitions", 4)),
                slice_in_process):
        report = ReadReport()
        try:
            results.append((run(paths, parser, policy=policy, report=report, **options), report))
        except LarsError as error:
            results.append((type(error), str(error)))
    return results


# --- in process ---------------------------------------------------------------------------

def test_in_process_csrbench_slices():
    slices = slice_in_process(turtle_files(CSRBENCH), parse_turtle_document, whole_files=True)
    assert [time for time, _ in slices] == list(range(34))
    assert sum(len(elements) for _, elements in slices) == 15188


def test_in_process_merges_files_by_time_in_the_order_given(tmp_path):
    first = write(tmp_path, "1: a\n3: b\n", "one.stream")
    second = write(tmp_path, "1: c\n2: d\n3: e\n", "two.stream")
    slices = slice_in_process([first, second], parse_stream_line)
    assert [(time, [atom.predicate for atom in atoms]) for time, atoms in slices] == [
        (1, ["a", "c"]), (2, ["d"]), (3, ["b", "e"])]


def test_in_process_missing_file(tmp_path):
    with pytest.raises(InputError, match=r"none.nt: error: cannot read the file: No such file"):
        slice_in_process([tmp_path / "none.nt"], NTRIPLES)


def test_pyspark_is_loaded_only_when_spark_starts():
    code = ("import sys, solver, translate, ingest.rdffiles, ingest.larsfile, ingest.slicing;"
            "ingest.slicing.slice_in_process([], None);"
            "sys.exit('pyspark' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


# --- Spark against plain Python ----------------------------------------------------------

@pytest.mark.spark
def test_spark_csrbench_folder(spark_master):
    spark, local = both(turtle_files(CSRBENCH), parse_turtle_document, spark_master, whole_files=True)
    assert spark == local
    assert sum(len(elements) for _, elements in spark[0]) == 15188


@pytest.mark.spark
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_spark_generated_ntriples_in_order(spark_master, tmp_path, seed):
    path = write(tmp_path, generated_stream(seed))
    spark, local = both(path, NTRIPLES, spark_master, partitions=5)
    assert spark == local
    assert len({element.stream for _, elements in spark[0] for element in elements}) == 3


@pytest.mark.spark
@pytest.mark.parametrize("seed", [4, 5])
def test_spark_sorts_out_of_order_lines_like_the_local_reader(spark_master, tmp_path, seed):
    path = write(tmp_path, generated_stream(seed, late=0.2))
    spark, local = both(path, NTRIPLES, spark_master, ReadPolicy(order="sort"), partitions=6)
    assert spark == local
    assert local[1].reordered > 0




@pytest.mark.spark
def test_spark_skips_bad_and_backwards_lines_like_the_local_reader(spark_master, tmp_path):
    path = write(tmp_path, generated_stream(6, late=0.1, bad=0.1))
    spark, local = both(path, NTRIPLES, spark_master, ReadPolicy(on_error="skip"), partitions=6)
    assert spark == local
    assert local[1].skipped > 5 and len(local[1].messages) == 5


@pytest.mark.spark
def test_spark_stops_at_the_first_bad_line(spark_master, tmp_path):
    text = generated_stream(7).splitlines()
    text[150] = text[150].rsplit(" ", 1)[0] + " 1.5"
    text[200] = text[200].rsplit(" ", 1)[0] + " 0"
    spark, local = both(write(tmp_path, "\n".join(text)), NTRIPLES, spark_master, partitions=5)
    assert spark == local
    assert spark[0] is ParseError and ":151:" in spark[1]


@pytest.mark.spark
@pytest.mark.parametrize("policy", [ReadPolicy(), ReadPolicy(on_error="skip")], ids=["stop", "skip"])
def test_spark_checks_time_order_across_partitions(spark_master, tmp_path, policy):
    """Line 1 is later than all others: every partition must know it (and name line 1)."""
    lines = ["500: p(0)"] + [f"{n}: p({n})" for n in range(1, 200)]
    spark, local = both(write(tmp_path, "\n".join(lines), "s.stream"), parse_stream_line, spark_master,
                        policy, partitions=6)
    assert spark == local
    message = "timestamp 1 goes back in time (line 1 had 500)"
    if policy.on_error == "stop":
        assert spark == (InputError, f"{tmp_path / 's.stream'}:2:1: error: {message}")
    else:
        assert spark[1].skipped == 199 and spark[1].messages[0].endswith(message)


@pytest.mark.spark
def test_spark_merges_several_files(spark_master, tmp_path):
    paths = [write(tmp_path, generated_stream(seed, lines=80), f"s{seed}.nt") for seed in (8, 9)]
    spark, local = both(paths, NTRIPLES, spark_master)
    assert spark == local


@pytest.mark.spark
def test_spark_lars_stream_file(spark_master):
    path = Path(__file__).parents[2] / "examples" / "coupons" / "stream.txt"
    spark, local = both(str(path), parse_stream_line, spark_master)
    assert spark == local and spark[0]


@pytest.mark.spark
def test_spark_turtle_folder_skip_mode(spark_master, tmp_path):
    folder = tmp_path / "stream"
    folder.mkdir()
    (folder / "d_1.ttl").write_text("@prefix ex: <http://ex.org/> .\nex:a ex:p [ ex:q 1 ] .\n")
    (folder / "d_2.ttl").write_text("@prefix ex: <http://ex.org/> .\nex:a ex:p ex:b ex:c .\n")
    spark, local = both(turtle_files(folder), parse_turtle_document, spark_master,
                        ReadPolicy(on_error="skip"), whole_files=True)
    assert spark == local
    assert local[1].skipped == 1 and ":2:" in local[1].messages[0]


@pytest.mark.spark
def test_spark_missing_file(spark_master, tmp_path):
    spark, local = both([tmp_path / "none.nt"], NTRIPLES, spark_master)
    assert spark == local and spark[0] is InputError


@pytest.mark.spark
@pytest.mark.parametrize("raised, stops", [
    pytest.param(KeyboardInterrupt(), True, id="ctrl-c-stops"),
    pytest.param(RuntimeError("bug"), True, id="bug-stops"),
    pytest.param(InputError("bad input"), False, id="input-error-keeps"),
    pytest.param(GeneratorExit(), False, id="closed-generator-keeps"),
])
def test_spark_context_stops_on_ctrl_c_and_bugs_only(spark_master, monkeypatch, raised, stops):
    stopped = []
    monkeypatch.setattr(spark, "stop_spark", lambda: stopped.append(True))
    with pytest.raises(type(raised)):
        with spark.spark_context(spark_master):
            raise raised
    assert stopped == ([True] if stops else [])


@pytest.mark.spark
def test_spark_without_java_is_an_input_error(tmp_path):
    code = ("from solver.spark import spark_context\n"
            "try:\n    with spark_context('local[1]'): pass\n"
            "except Exception as error: print(type(error).__name__, error)\n")
    env = {"PATH": "/usr/bin:/bin", "JAVA_HOME": str(tmp_path / "no-java"), "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120).stdout
    assert out.startswith("InputError error: cannot start Spark with master 'local[1]': ")
    assert out.rstrip().endswith("(Spark needs Java 17 or later (on PATH or in JAVA_HOME))")


# --- the lazy Spark reader -----------------------------------------------------------------

def lazy(paths, parser, master, policy=ReadPolicy(), **options):
    """iter_slice_stream's slices and report (or its error, as ``both`` gives it), and the slices
    it yielded (before the error, if any)."""
    report, yielded = ReadReport(), []
    try:
        for item in iter_slice_stream(paths, parser, master=master, policy=policy, report=report,
                                      **options):
            yielded.append(item)
    except LarsError as error:
        return (type(error), str(error)), yielded
    return (yielded, report), yielded


def all_three(paths, parser, master, policy=ReadPolicy(), partitions=4, **options):
    """The lazy reader's result, then ``both``'s: Spark collecting, in process."""
    lazy_result, _ = lazy(paths, parser, master, policy, partitions=partitions, **options)
    return [lazy_result, *both(paths, parser, master, policy, partitions=partitions, **options)]


def straddling_times(path: str, partitions: int, master: str) -> set[str]:
    """The timestamps whose lines Spark's ``textFile`` splits over two partitions."""
    with spark.spark_context(master) as context:
        parts = context.textFile(path, partitions).glom().collect()
    stamps = [[line.rsplit(" ", 1)[1] for line in part if line.strip() and not line.startswith("#")]
              for part in parts]
    return {before[-1] for before, after in zip(stamps, stamps[1:])
            if before and after and before[-1] == after[0]}


def persistent_rdds(master: str) -> int:
    with spark.spark_context(master) as context:
        return context._jsc.getPersistentRDDs().size()


@pytest.mark.spark
def test_lazy_csrbench_folder(spark_master):
    lazy_result, spark, local = all_three(turtle_files(CSRBENCH), parse_turtle_document, spark_master,
                                          whole_files=True)
    assert lazy_result == spark == local
    assert [time for time, _ in lazy_result[0]] == list(range(34))
    assert lazy_result[1].elements == 15188 and lazy_result[1].records == 34


@pytest.mark.spark
@pytest.mark.parametrize("seed, partitions", [(1, 4), (2, 8), (3, 13)])
def test_lazy_generated_ntriples_over_many_partitions(spark_master, tmp_path, seed, partitions):
    path = write(tmp_path, generated_stream(seed, lines=600))
    assert straddling_times(path, partitions, spark_master), "no time point straddles partitions"
    lazy_result, spark, local = all_three(path, NTRIPLES, spark_master, partitions=partitions)
    assert lazy_result == spark == local
    assert any(len(elements) > 1 for _, elements in local[0])


@pytest.mark.spark
@pytest.mark.parametrize("seed", [6, 10])
def test_lazy_skip_counts_like_the_others(spark_master, tmp_path, seed):
    path = write(tmp_path, generated_stream(seed, lines=600, late=0.1, bad=0.1))
    lazy_result, spark, local = all_three(path, NTRIPLES, spark_master, ReadPolicy(on_error="skip"),
                                          partitions=7)
    assert lazy_result == spark == local
    assert lazy_result[1].skipped > 5 and len(lazy_result[1].messages) == 5


@pytest.mark.spark
@pytest.mark.parametrize("bad_stamp, error", [
    ("1.5", ParseError), ("0", InputError)],
    ids=["parse-error", "backwards"])
def test_lazy_stops_before_yielding_anything_after_the_bad_line(spark_master, tmp_path, bad_stamp,
                                                                 error):
    """The bad line is mid-partition: the partition's later lines must not come out first."""
    lines = generated_stream(11, lines=600, streams=1).splitlines()
    bad = 331
    lines[bad] = lines[bad].rsplit(" ", 1)[0] + " " + bad_stamp
    path = write(tmp_path, "\n".join(lines) + "\n")
    lazy_result, yielded = lazy(path, NTRIPLES, spark_master, partitions=6)
    spark, local = both(path, NTRIPLES, spark_master, partitions=6)
    assert lazy_result == spark == local
    assert lazy_result[0] is error and f":{bad + 1}:" in lazy_result[1]
    before = group_by_time(parse_lines(lines[:bad], path, NTRIPLES, ReadPolicy(), ReadReport()))
    assert len(before) > 10
    assert yielded == before[:-1]  # all that was complete before the bad line, and no more


@pytest.mark.spark
@pytest.mark.parametrize("bad_stamp, error", [("1.5", ParseError), ("0", InputError)],
                         ids=["parse-error", "backwards"])
def test_interleaved_streams_are_checked_before_anything_is_yielded(spark_master, tmp_path,
                                                                     bad_stamp, error):
    """Several interleaved streams are merged on the driver after the job: the lazy reader
    yields nothing before it raises (a documented fallback), and raises what the local one does."""
    lines = generated_stream(11, lines=600).splitlines()
    lines[331] = lines[331].rsplit(" ", 1)[0] + " " + bad_stamp
    path = write(tmp_path, "\n".join(lines) + "\n")
    lazy_result, yielded = lazy(path, NTRIPLES, spark_master, partitions=6)
    assert lazy_result == both(path, NTRIPLES, spark_master, partitions=6)[1]
    assert lazy_result[0] is error and ":332:" in lazy_result[1] and yielded == []


@pytest.mark.spark
def test_lazy_close_early_unpersists_and_keeps_the_context(spark_master, tmp_path):
    path = write(tmp_path, generated_stream(12, lines=400))
    expected = slice_in_process(path, NTRIPLES)
    cached = persistent_rdds(spark_master)
    context = spark._state["context"]
    slices = iter_slice_stream(path, NTRIPLES, master=spark_master, partitions=5)
    assert next(slices) == expected[0]
    assert persistent_rdds(spark_master) == cached + 1
    slices.close()
    assert persistent_rdds(spark_master) == cached
    assert spark._state["context"] is context
    assert list(iter_slice_stream(path, NTRIPLES, master=spark_master, partitions=5)) == expected
    assert persistent_rdds(spark_master) == cached


@pytest.mark.spark
def test_lazy_checks_paths_at_once(spark_master, tmp_path):
    with pytest.raises(InputError, match=r"none.nt: error: cannot read the file"):
        iter_slice_stream([tmp_path / "none.nt"], NTRIPLES, master=spark_master)
    assert list(iter_slice_stream([], NTRIPLES, master=spark_master)) == []


@pytest.mark.spark
def test_lazy_whole_files_must_come_in_time_order(spark_master):
    paths = turtle_files(CSRBENCH)
    paths[3], paths[4] = paths[4], paths[3]
    lazy_result, yielded = lazy(paths, parse_turtle_document, spark_master, whole_files=True)
    assert lazy_result[0] is InputError
    assert lazy_result[1].startswith(f"{paths[4]}: error: time point 3 goes back in time "
                                     f"({paths[3]} had 4)")
    assert [time for time, _ in yielded] == [0, 1, 2]


@pytest.mark.spark
def test_lazy_falls_back_for_several_files(spark_master, tmp_path):
    paths = [write(tmp_path, generated_stream(seed, lines=80), f"s{seed}.nt") for seed in (8, 9)]
    lazy_result, spark, local = all_three(paths, NTRIPLES, spark_master)
    assert lazy_result == spark == local


@pytest.mark.spark
@pytest.mark.parametrize("on_error", ["stop", "skip"])
def test_lazy_falls_back_for_sort_order(spark_master, tmp_path, on_error):
    path = write(tmp_path, generated_stream(4, late=0.2))
    policy = ReadPolicy(on_error=on_error, order="sort")
    lazy_result, spark, local = all_three(path, NTRIPLES, spark_master, policy, partitions=6)
    assert lazy_result == spark == local
    assert local[1].reordered > 0
