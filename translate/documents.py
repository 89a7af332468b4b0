"""Small documents read whole (recorded answers, engine profiles): only regular files, at most
a bounded size, UTF-8 text (issue 28).

A reader that calls ``Path.read_text`` reads ``/dev/zero`` until memory runs out, waits for ever
on a FIFO, and on a UTF-16 file raises a ``UnicodeDecodeError`` whose text holds the file's
bytes. :func:`read_document` refuses each of these in one line that names the file and never
shows its content. The bound is :data:`DEFAULT_MAX_DOCUMENT_BYTES`, or the environment variable
:data:`MAX_DOCUMENT_VARIABLE`, which the message names.

>>> decode_text("ok\\n caf\u00e9".encode("latin-1"), "q.rq")
Traceback (most recent call last):
lars.errors.ParseError: q.rq:2:5: error: the file is not UTF-8 text (byte 0xe9)
"""

from __future__ import annotations

import os
import re
import stat

from lars.errors import InputError, LimitError, ParseError, Position
from lars.filekinds import kind_of

DEFAULT_MAX_DOCUMENT_BYTES = 64 * 2**20
MAX_DOCUMENT_VARIABLE = "LARS_MAX_DOCUMENT_BYTES"
UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")


def max_document_bytes() -> int:
    """The bound in force: :data:`MAX_DOCUMENT_VARIABLE`, else the default.

    Raises:
        InputError: the variable is not a whole number of 1 or more.
    """
    text = os.environ.get(MAX_DOCUMENT_VARIABLE)
    if text is None:
        return DEFAULT_MAX_DOCUMENT_BYTES
    if not text.strip().isdigit() or int(text) < 1:
        raise InputError(f"{MAX_DOCUMENT_VARIABLE} must be a whole number of 1 or more, not {text!r}")
    return int(text)


def read_document(path: str | os.PathLike, what: str = "file") -> str:
    """The whole of the regular file ``path`` as UTF-8 text (a leading byte-order mark dropped).

    Args:
        what: what the file holds, for the messages ("recorded answers", "profile").

    Raises:
        InputError: it cannot be opened, is not a regular file, or is larger than the bound.
        ParseError: it is not UTF-8 text (the line and column of the first bad byte).
    """
    source = os.fspath(path)
    limit = max_document_bytes()
    try:
        mode = os.stat(source).st_mode  # before opening: opening a FIFO waits for a writer
        if not stat.S_ISREG(mode):
            raise InputError(f"the {what} must be a regular file, not {kind_of(mode)}", Position(source))
        with open(source, "rb") as file:
            data = file.read(limit + 1)
    except OSError as error:
        raise InputError(f"cannot read the {what}: {error.strerror or error}", Position(source)) from None
    if len(data) > limit:
        raise LimitError(f"the {what} is larger than the limit of {limit} bytes", Position(source),
                         hint=f"raise it with {MAX_DOCUMENT_VARIABLE}=N")
    if data.startswith(UTF16_MARKS):
        raise ParseError("the file is UTF-16 text, not UTF-8", Position(source, 1, 1),
                         hint="save it as UTF-8")
    text = decode_text(data, source)
    if "\x00" in text:
        at = text.index("\x00")
        line = text.count("\n", 0, at) + 1
        raise ParseError("the file holds a NUL character (binary data, or UTF-16 without a "
                         "byte-order mark?)", Position(source, line, at - text.rfind("\n", 0, at)))
    return text


def decode_text(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text without a leading byte-order mark.

    Raises:
        ParseError: not UTF-8, at the line and column of the first bad byte (the bytes
            themselves are not shown: they may be anything).
    """
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        line = data.count(b"\n", 0, exc.start) + 1
        column = len(data[start:exc.start].decode("utf-8", errors="replace")) + 1
        raise ParseError(f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x})",
                         Position(source, line, column)) from None



LONE_SURROGATE = "a \\u escape names a lone surrogate (half of a UTF-16 pair), not a character"
SURROGATE_ESCAPE = re.compile(r"\\(?:u[dD][89a-fA-F][0-9a-fA-F]{2}|U0000[dD][89a-fA-F][0-9a-fA-F]{2})")


def refuse_surrogate_escapes(text: str, source: str) -> None:
    """Refuse a SPARQL ``\\uD800``-style escape: it would be read as a lone surrogate, which no
    output can encode (issue 28: writing the answer crashed).

    >>> refuse_surrogate_escapes('SELECT * { ?s ?p "a\\\\uD800" }', "q.rq")
    Traceback (most recent call last):
    lars.errors.ParseError: q.rq:1:20: error: a \\u escape names a lone surrogate (half of a UTF-16 pair), not a character
    """
    found = SURROGATE_ESCAPE.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        column = found.start() - text.rfind("\n", 0, found.start())
        raise ParseError(LONE_SURROGATE, Position(source, line, column))
