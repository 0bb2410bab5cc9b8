"""A file's bytes: read when small, mapped when big (``MAP_BYTES``), gunzipped, and
hashed in the background while the parser works."""

from __future__ import annotations

import contextlib
import gzip
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


class _Background:
    """``fn()`` in a thread of its own at idle CPU priority; ``result()`` waits for it."""

    def __init__(self, fn) -> None:
        self._fn, self._value, self._error = fn, None, None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        # Linux: a thread is a task with its own policy; SCHED_IDLE runs only on an idle core
        # (nice 19 still takes a share of a busy one). Elsewhere the thread runs as it is.
        with contextlib.suppress(AttributeError, OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        try:
            self._value = self._fn()
        except BaseException as exc:  # handed to the caller of result()
            self._error = exc

    def result(self):
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value
