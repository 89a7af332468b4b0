"""Spark master URLs checked before Spark starts (brief mend3, item 2): the forms Spark's
documentation lists for ``--master`` ("Master URLs" in Submitting Applications), and a
standalone master that is not there, refused at once instead of after Spark's minute of
retries ending in a hint about Java."""

from __future__ import annotations

import socket

import pytest

from lars.errors import InputError
from solver.spark import log_cause
from solver.sparkmaster import check_master, master_form, standalone_addresses
from tests.badinput.clirun import assert_refused, lars


@pytest.mark.parametrize("url", [
    "local", "local[4]", "local[*]", "local[4,2]", "local[*,3]", "local-cluster[2,1,1024]",
    "spark://127.0.0.1:7077", "spark://h1:7077,h2:7077", "yarn", "k8s://https://h:443",
    "mesos://h:5050"])
def test_the_documented_forms_are_taken(url):
    assert master_form(url) == url


@pytest.mark.parametrize("url", [
    "spark//127.0.0.1:7077", "spark://127.0.0.1", "spark://:7077", "spark://h:7077,", "local[]",
    "local[x]", "Local", "127.0.0.1:7077", "", "spark://h:7077/"])
def test_other_text_is_refused(url):
    with pytest.raises(InputError, match="no Spark master URL"):
        master_form(url)


def test_addresses_of_a_standalone_url():
    assert standalone_addresses("spark://a:1,b:2") == [("a", 1), ("b", 2)]
    assert standalone_addresses("local[*]") == []


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed again when the with ends: nothing listens


def test_a_master_where_nothing_listens_is_refused_at_once():
    port = closed_port()
    with pytest.raises(InputError, match=f"cannot reach the Spark master spark://127.0.0.1:{port}"):
        check_master(f"spark://127.0.0.1:{port}", seconds=2)


def test_a_listening_master_passes():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        check_master(f"spark://127.0.0.1:{server.getsockname()[1]}", seconds=2)


def test_the_command_refuses_a_malformed_master(tmp_path):
    status, _, err = lars("run", tmp_path / "q.rq", "--master", "spark//127.0.0.1:7077")
    line = assert_refused(status, err, "--master")
    assert "is no Spark master URL" in line and "spark://HOST:PORT" in line


def test_the_log_s_cause_is_found(tmp_path):
    log = tmp_path / "spark.log"
    log.write_text("WARNING: Using incubator modules: jdk.incubator.vector\n"
                   "ERROR SparkContext: Error initializing SparkContext.\n"
                   "org.apache.spark.SparkException: Could not parse Master URL: 'x'\n")
    assert log_cause(str(log)) == "Could not parse Master URL: 'x'"
    log.write_text("ERROR StandaloneSchedulerBackend: Application has been killed. Reason: "
                   "All masters are unresponsive! Giving up.\n")
    assert log_cause(str(log)).startswith("Application has been killed")
    assert log_cause(str(tmp_path / "none.log")) is None
