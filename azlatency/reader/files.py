"""A file's bytes: read when small, mapped when big (``MAP_BYTES``), gunzipped, and
hashed in the background while the parser works."""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import mmap
import os
import re
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

from ..errors import (
    DetectionError,
)
from ..parsers._lines import count_newlines

_GZIP = b"\x1f\x8b"


def _gunzip(data: bytes, source: str | None, tool: str | None) -> bytes:
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:
        raise DetectionError(
            tool or "azlatency", source, None, f"a gzip file that does not decompress: {exc}"
        ) from None


class _Known:
    """A hash the caller already has, answering like :class:`_Background`."""

    def __init__(self, value: str) -> None:
        self.value = value

    def result(self) -> str:
        return self.value


# Files from this size on are mapped, not read: the parser's fast paths take their bytes
# straight from the page cache, and half a gigabyte of log is never copied into the process.
MAP_BYTES = 32 << 20


@contextlib.contextmanager
def file_bytes(path: str | os.PathLike[str]) -> Iterator[bytes]:
    """The bytes of a file: read when small, mapped (:class:`_Mapped`) from :data:`MAP_BYTES`
    on.  Parsing takes them through the same code either way."""
    path = Path(path)
    if not MAP_BYTES <= path.stat().st_size > 0:
        yield path.read_bytes()
        return
    with path.open("rb") as f:
        data = _Mapped.of(f.fileno())
    try:
        yield data
    finally:
        # Something may still view the mapping (BufferError): it then goes with that view.
        with contextlib.suppress(BufferError):
            data.close()


class _Mapped(mmap.mmap):
    """A read-only mapped file that answers the ``bytes`` methods the readers use (slices are
    ``bytes``).  Anything else is asked of a ``bytes`` copy: correct, only slower.  The file
    must not shrink while it is read (raw data is never modified: docs/campaign.md)."""

    _SPACE = re.compile(rb"[^ \t\n\r\x0b\x0c]")

    @classmethod
    def of(cls, fd: int) -> _Mapped:
        """The whole file, read-only; on Linux its pages are mapped in one call (MAP_POPULATE)
        rather than one fault at a time as the parser meets them."""
        if hasattr(mmap, "MAP_POPULATE"):
            return cls(fd, 0, flags=mmap.MAP_SHARED | mmap.MAP_POPULATE, prot=mmap.PROT_READ)
        return cls(fd, 0, access=mmap.ACCESS_READ)

    def isspace(self) -> bool:
        return len(self) > 0 and self._SPACE.search(self) is None

    def startswith(self, prefix, start: int = 0, end: int | None = None) -> bool:
        prefixes = prefix if isinstance(prefix, tuple) else (prefix,)
        head = (
            self[start : start + max(len(p) for p in prefixes)] if end is None else self[start:end]
        )
        return head.startswith(prefixes)

    def endswith(self, suffix) -> bool:
        suffixes = suffix if isinstance(suffix, tuple) else (suffix,)
        return self[len(self) - max(len(s) for s in suffixes) :].endswith(suffixes)

    def count(self, sub: bytes, start: int = 0, end: int | None = None) -> int:
        if sub == b"\n":
            return count_newlines(self, start, end)
        return self[start:end].count(sub)

    def __contains__(self, sub) -> bool:
        return self.find(sub) >= 0

    def decode(self, *args, **kwargs) -> str:
        return self[:].decode(*args, **kwargs)

    def __getattr__(self, name: str):
        return getattr(self[:], name)


class _Hashing:
    """The sha256 of ``data``: hashed slice by slice in a thread of its own at idle CPU
    priority while the parser works, the rest by the caller of ``result()``.

    Linux: a thread is a task with its own policy; ``SCHED_IDLE`` runs only on a core nothing
    else wants (nice 19 still takes a share of a busy one), so the hash takes the cores the
    parser leaves free.  But beside a 2-core machine's two parser threads it got little, and
    once the parser was done any neighbour's busy process still came first: a 10-million-row
    sockperf log waited 0.2-3.6 s on the rest of its hash.  ``result()`` takes over from the
    last slice the thread finished and hashes the rest at the caller's priority; the thread
    stops at its next slice, its slice in hand left to the caller, not waited for."""

    _STEP = 4 << 20  # bytes a slice: 2-3 ms of hashing between checkpoints

    def __init__(self, data) -> None:
        self._data = data
        self._done = (0, hashlib.sha256())  # bytes hashed, and a copy of the hash at that point
        self._stop = False
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        with contextlib.suppress(AttributeError, OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        sha = hashlib.sha256()
        with contextlib.suppress(Exception), memoryview(self._data) as view:
            # (whatever goes wrong here, result() hashes from the last checkpoint)
            for at in range(0, len(view), self._STEP):
                if self._stop:
                    return
                sha.update(view[at : at + self._STEP])  # lets go of the GIL
                self._done = (min(at + self._STEP, len(view)), sha.copy())

    def result(self) -> str:
        self._stop = True
        at, sha = self._done  # a copy the thread no longer touches
        sha = sha.copy()
        with memoryview(self._data) as view:
            sha.update(view[at:])
        return sha.hexdigest()
