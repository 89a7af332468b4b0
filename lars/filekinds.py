"""What a path is, in words, for messages that refuse anything but a regular file, and which
errors of writing are the disk's, not the input's (issue 28).

>>> import stat
>>> kind_of(stat.S_IFIFO), kind_of(stat.S_IFCHR)
('a pipe', 'a character device')
"""

from __future__ import annotations

import errno
import stat

KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISCHR, "a character device"),
         (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def kind_of(mode: int) -> str:
    """What a file of ``mode`` (``os.stat``'s ``st_mode``) is, if not a regular file."""
    return next((name for test, name in KINDS if test(mode)), "not a regular file")


WRITE_FAILURES = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)
"""``errno`` values of a failed write: disk full, quota, file too large, device failed."""
