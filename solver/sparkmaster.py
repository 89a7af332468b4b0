"""Spark master URLs: their form checked, and a standalone master's address tried, before Spark
starts (brief mend3, item 2).

A newcomer's ``--master spark//127.0.0.1:7077`` (a colon missing) or a master where nothing
listened failed after 37-137 s with a hint about Java, the cause being in Spark's log only.
The forms are those Spark's documentation lists for ``--master`` ("Master URLs", Submitting
Applications): ``local``, ``local[N]``, ``local[*]``, ``local[N,F]``, ``local[*,F]``,
``local-cluster[N,C,M]``, ``spark://HOST:PORT[,HOST:PORT...]``, ``yarn``, ``k8s://...``,
``mesos://...``. No pyspark here: the check runs before the JVM is started.
"""

from __future__ import annotations

import re
import socket

from lars.errors import InputError

_FORMS = re.compile(
    r"local(?:\[(?:\d+|\*)(?:,\d+)?\])?"
    r"|local-cluster\[\d+,\d+,\d+\]"
    r"|spark://[^\s,:/]+:\d+(?:,[^\s,:/]+:\d+)*"
    r"|yarn|k8s://\S+|mesos://\S+")
FORMS_TEXT = ("local, local[N], local[*], spark://HOST:PORT[,HOST:PORT...], yarn, k8s://... "
              "or mesos://...")
REACH_SECONDS = 5.0
"""How long a standalone master's port is tried before the master is called unreachable."""


def master_form(url: str) -> str:
    """``url`` if it has the form of a Spark master URL.

    >>> master_form("spark://127.0.0.1:7077,10.0.0.2:7077")
    'spark://127.0.0.1:7077,10.0.0.2:7077'
    >>> master_form("spark//127.0.0.1:7077")
    Traceback (most recent call last):
    ...
    lars.errors.InputError: error: --master 'spark//127.0.0.1:7077' is no Spark master URL (expected local, local[N], local[*], spark://HOST:PORT[,HOST:PORT...], yarn, k8s://... or mesos://...)

    Raises:
        InputError: any other text.
    """
    if _FORMS.fullmatch(url) is None:
        raise InputError(f"--master {url!r} is no Spark master URL", hint=f"expected {FORMS_TEXT}")
    return url


def standalone_addresses(url: str) -> list[tuple[str, int]]:
    """The ``(host, port)`` pairs of a ``spark://`` URL (none for the other forms)."""
    if not url.startswith("spark://"):
        return []
    return [(host, int(port)) for host, port in
            (pair.rsplit(":", 1) for pair in url.removeprefix("spark://").split(","))]


def check_master(url: str, seconds: float = REACH_SECONDS) -> None:
    """Refuse a master URL of no known form, or a standalone master none of whose addresses
    accepts a connection within ``seconds`` (Spark itself retries for about a minute and then
    reports an unrelated failure).

    Raises:
        InputError: the form is wrong or no address answers.
    """
    master_form(url)
    addresses = standalone_addresses(url)
    reasons = []
    for host, port in addresses:
        try:
            with socket.create_connection((host, port), timeout=seconds):
                return
        except OSError as error:
            reasons.append(f"{host}:{port}: {error.strerror or error}")
    if addresses:
        raise InputError(f"cannot reach the Spark master {url}: " + "; ".join(reasons),
                         hint="start the master (docs/spark.md) or correct --master")
