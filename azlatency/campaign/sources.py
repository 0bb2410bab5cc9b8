"""Every file of a campaign — in a folder or inside archives — read in place, never written.

:func:`discover` walks a campaign folder (or a campaign that is itself an archive) in sorted
order and yields one :class:`Entry` per file: a regular file to parse, ``campaign.yaml``, an
archive (whose entries follow it), or something refused with a reason: a link, a file over the
size limit, an archive entry whose path escapes the archive, a link or device inside an
archive, an entry that would expand past the limits, a nested archive.

Archive entries that must be parsed are spooled to files in the import's staging folder, so
worker processes read them like any other file and memory stays bounded.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tarfile
import time
import zipfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .config import FILENAMES

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")
HASH_THREADS = os.cpu_count() or 1
# A file modified this recently when it is hashed may be modified again within the same tick
# of its file system's clock (FAT counts in 2 s) without its stamp changing: git's "racy"
# files.  Such a file gets no stamp, so the worker hashes it again.
RACY_NS = 2_000_000_000
ARCHIVE_SEP = "!/"  # source_path of an archive entry: "logs.zip!/az1-az3/ping.log"


@dataclass(frozen=True)
class Limits:
    """Sizes past which a file or an archive entry is refused (bytes)."""

    max_file_bytes: int = 1 << 30  # one log held in memory while it is parsed
    max_archive_bytes: int = 4 << 30  # everything one archive may expand to


@dataclass
class Entry:
    path: str  # relative to the campaign root, posix; archive entries use ARCHIVE_SEP
    kind: str  # file | campaign | archive | refused
    size: int = 0
    sha256: str | None = None
    location: Path | None = None  # where to read the bytes (the file, or its spooled copy)
    reason: str | None = None  # refused: why (reason code)
    detail: str | None = None
    extra: dict = field(default_factory=dict)
    stamp: tuple[int, ...] | None = None  # file_stamp just before hashing, if not racy


def file_stamp(st: os.stat_result) -> tuple[int, ...]:
    """What changes when a file's bytes do: size, modification and change times (ns), inode.
    The inode number (not the device, numbered per machine) so that a Dask worker reading the
    same shared file finds the same stamp."""
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def settled_stamp(st: os.stat_result, now_ns: int) -> tuple[int, ...] | None:
    """``file_stamp(st)``, or None when the file was modified less than :data:`RACY_NS`
    before ``now_ns``: any later write then shows in the stamp (how git trusts its index)."""
    if max(st.st_mtime_ns, st.st_ctime_ns) > now_ns - RACY_NS:
        return None
    return file_stamp(st)


def is_archive(name: str) -> bool:
    return name.lower().endswith(ARCHIVE_SUFFIXES)


def _hash_file(path: Path) -> tuple[str, int]:
    h, size = hashlib.sha256(), 0
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
            size += len(block)
    return h.hexdigest(), size


def _safe_name(name: str) -> str | None:
    """Posix path of an archive member, or ``None`` when it is absolute or escapes."""
    name = name.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return None
    parts = [p for p in PurePosixPath(name).parts if p not in ("", ".")]
    if not parts or ".." in parts:
        return None
    return "/".join(parts)


Spool = Callable[[str, bytes], Path]  # (sha256, data) -> path of a readable copy


class _ArchiveReader:
    """Reads one archive's members under the limits; yields entries and refusals."""

    def __init__(self, archive: Path, prefix: str, limits: Limits, spool: Spool) -> None:
        self.archive, self.prefix, self.limits, self.spool = archive, prefix, limits, spool
        self.total = 0

    def entry_path(self, name: str) -> str:
        return f"{self.prefix}{ARCHIVE_SEP}{name}" if self.prefix else name

    def refuse(self, name: str, reason: str, detail: str) -> Entry:
        return Entry(self.entry_path(name), "refused", reason=reason, detail=detail)

    def accept(self, name: str, read: Callable[[int], bytes], declared: int) -> Entry:
        if is_archive(name):
            return self.refuse(name, "nested_archive", "archives inside archives are not opened")
        limit = self.limits.max_file_bytes
        if declared > limit:
            return self.refuse(name, "too_large", f"{declared} bytes > limit {limit}")
        if self.total + declared > self.limits.max_archive_bytes:
            return self.refuse(
                name,
                "refused_entry",
                f"archive would expand past {self.limits.max_archive_bytes} bytes",
            )
        data = read(limit + 1)
        if len(data) > limit:  # the header lied about the size
            return self.refuse(name, "too_large", f"expands past the limit {limit}")
        self.total += len(data)
        if self.total > self.limits.max_archive_bytes:
            return self.refuse(
                name,
                "refused_entry",
                f"archive would expand past {self.limits.max_archive_bytes} bytes",
            )
        sha = hashlib.sha256(data).hexdigest()
        return Entry(
            self.entry_path(name),
            "file",
            size=len(data),
            sha256=sha,
            location=self.spool(sha, data),
        )

    def zip_entries(self) -> Iterator[Entry]:
        with zipfile.ZipFile(self.archive) as zf:
            for info in sorted(zf.infolist(), key=lambda i: i.filename):
                name = _safe_name(info.filename)
                if name is None:
                    yield self.refuse(info.filename, "refused_entry", "path escapes the archive")
                    continue
                if info.is_dir():
                    continue
                mode = info.external_attr >> 16
                if stat.S_ISLNK(mode):
                    yield self.refuse(name, "refused_entry", "symbolic link in the archive")
                    continue
                if info.flag_bits & 0x1:
                    yield self.refuse(name, "refused_entry", "encrypted entry")
                    continue
                try:
                    with zf.open(info) as member:
                        yield self.accept(name, member.read, info.file_size)
                except (zipfile.BadZipFile, OSError, EOFError) as exc:
                    yield self.refuse(name, "refused_entry", f"corrupt entry: {exc}")

    def tar_entries(self) -> Iterator[Entry]:
        # Streamed in archive order (a .tar.gz has no index); the caller sorts entries.
        with tarfile.open(self.archive, "r:*") as tf:
            for member in tf:
                name = _safe_name(member.name)
                if name is None:
                    yield self.refuse(member.name, "refused_entry", "path escapes the archive")
                    continue
                if member.isdir():
                    continue
                if member.issym() or member.islnk():
                    yield self.refuse(
                        name, "refused_entry", f"link in the archive (to {member.linkname!r})"
                    )
                    continue
                if not member.isfile():
                    yield self.refuse(name, "refused_entry", "device or special file")
                    continue
                handle = tf.extractfile(member)
                yield self.accept(name, handle.read if handle else (lambda n: b""), member.size)

    def entries(self) -> Iterator[Entry]:
        lower = self.archive.name.lower()
        reader = self.zip_entries if lower.endswith(".zip") else self.tar_entries
        try:
            yield from reader()
        except (zipfile.BadZipFile, tarfile.TarError, OSError, EOFError) as exc:
            yield Entry(
                self.entry_path("*"),
                "refused",
                reason="corrupt_archive",
                detail=f"archive unreadable from here on: {exc}",
            )


def _walk(root: Path, unreadable: list[OSError]) -> Iterator[tuple[str, Path]]:
    """(relative posix path, path) of everything under ``root``, sorted, links not followed.

    Folders that cannot be listed are appended to ``unreadable`` (os.walk would skip them).
    """
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False, onerror=unreadable.append):
        dirnames.sort()
        base = Path(dirpath)
        names = sorted(filenames + [d for d in dirnames if (base / d).is_symlink()])
        for name in names:
            path = base / name
            yield path.relative_to(root).as_posix(), path


def discover(root: Path, *, limits: Limits, spool: Spool) -> list[Entry]:
    """Every file of the campaign at ``root`` (a folder or an archive), sorted by path."""
    if root.is_file():
        reader = _ArchiveReader(root, "", limits, spool)
        archive = Entry(root.name, "archive", size=root.stat().st_size)
        archive.sha256 = _hash_file(root)[0]
        entries = _strip_top(list(reader.entries()))
        return [archive, *sorted(entries, key=lambda e: e.path)]
    out: list[Entry] = []
    unreadable: list[OSError] = []
    found = list(_walk(root, unreadable))
    # Hashing is most of discovery (a 10^8-sample dump is 4 GB), and hashlib lets go of the
    # GIL: plain files are hashed on a thread per core.  Archives stay on this thread (their
    # entries are spooled one by one).
    with ThreadPoolExecutor(HASH_THREADS) as pool:
        for got in pool.map(
            lambda f: _one(*f, root, limits, spool), [f for f in found if not is_archive(f[0])]
        ):
            out.extend(got)
    for rel, path in found:
        if is_archive(rel):
            out.extend(_one(rel, path, root, limits, spool))
    for exc in unreadable:
        rel = Path(exc.filename).relative_to(root).as_posix() if exc.filename else "?"
        out.append(
            Entry(
                f"{rel}/",
                "refused",
                reason="unreadable",
                detail=f"folder could not be listed: {exc.strerror or exc}",
            )
        )
    return sorted(out, key=lambda e: e.path)


def _one(rel: str, path: Path, root: Path, limits: Limits, spool: Spool) -> list[Entry]:
    try:
        st = path.lstat()
    except OSError as exc:
        return [Entry(rel, "refused", reason="unreadable", detail=str(exc))]
    now_ns = time.time_ns()
    if stat.S_ISLNK(st.st_mode):
        return [
            Entry(
                rel,
                "refused",
                reason="link",
                detail=f"symbolic link to {os.readlink(path)!r} (not followed)",
            )
        ]
    if not stat.S_ISREG(st.st_mode):
        return [Entry(rel, "refused", reason="unreadable", detail="not a regular file")]
    if rel in FILENAMES:
        return [Entry(rel, "campaign", size=st.st_size, sha256=_hash_file(path)[0], location=path)]
    if st.st_size > limits.max_file_bytes:
        return [
            Entry(
                rel,
                "refused",
                size=st.st_size,
                reason="too_large",
                detail=f"{st.st_size} bytes > limit {limits.max_file_bytes}",
            )
        ]
    try:
        sha, size = _hash_file(path)
    except OSError as exc:
        return [Entry(rel, "refused", reason="unreadable", detail=str(exc))]
    if is_archive(rel):
        archive = Entry(rel, "archive", size=size, sha256=sha, location=path)
        return [archive, *_ArchiveReader(path, rel, limits, spool).entries()]
    stamp = settled_stamp(st, now_ns) if size == st.st_size else None
    return [Entry(rel, "file", size=size, sha256=sha, location=path, stamp=stamp)]


def _strip_top(entries: list[Entry]) -> list[Entry]:
    """``tar czf dump.tgz dump/`` puts everything under one folder: drop it from the paths."""
    files = [e for e in entries if e.kind == "file"]
    tops = {e.path.split("/", 1)[0] for e in files}
    if len(tops) == 1 and all("/" in e.path for e in files):
        top = tops.pop() + "/"
        for e in entries:
            if e.path.startswith(top):
                e.path = e.path[len(top) :]
    for e in entries:
        if e.path in FILENAMES and e.kind == "file":
            e.kind = "campaign"
    return entries
