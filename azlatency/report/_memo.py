"""A campaign's statistics computed once, read by every page (issue 39).

Ten pages of one campaign asked for the same percentiles, zone medians, contrasts and tails,
each from the samples again (the synthetic campaign's pages spent most of their 8 minutes
there).  :func:`memo` keeps the result of a report function per campaign store and package
code:

- in the process (a warm kernel runs one campaign's pages one after another);
- on disk, under ``<processed>/.derived/<campaign>/``, keyed like the page cache
  (``report.cache``): the store's manifest (the SHA-256 of every table file), the package's
  code, the arguments.  A re-import or a code change gives other keys: the entries of the
  store and code before are removed when the first entry of the new ones is looked for
  (each generation is a folder).

Only tables loaded whole by :func:`report.load_campaigns` carry the fingerprint; a subset
made inside a function is computed as before.  ``AZLATENCY_NO_MEMO=1`` turns it off.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import os
import pickle
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows: no lock, each kernel computes (see _alone)
    fcntl = None  # type: ignore[assignment]

import numpy as np
import pandas as pd

from ..schema import Tables
from .cache import code_fingerprint

_MEMORY: dict[str, Any] = {}
_MEMORY_MAX = 64  # entries a process keeps (a campaign's page asks for a dozen)


def stamp(tables: Tables, fingerprint: str, folder: Path | None) -> Tables:
    """Mark ``tables`` (a whole campaign as loaded) with its store's fingerprint and the
    folder its derived results go to."""
    tables._memo = (fingerprint, folder)  # type: ignore[attr-defined]
    return tables


def _of(tables: Any) -> tuple[str, Path | None] | None:
    return getattr(tables, "_memo", None) if isinstance(tables, Tables) else None


def stamped(tables: Any) -> bool:
    """Whether ``tables`` are a whole campaign as loaded (their results are kept)."""
    return _of(tables) is not None and not os.environ.get("AZLATENCY_NO_MEMO")


def _digest(h, obj: Any) -> None:
    """Feed ``obj`` to the hash: frames by content, containers item by item."""
    if isinstance(obj, pd.DataFrame):
        h.update(repr((list(obj.columns), obj.shape)).encode())
        h.update(pd.util.hash_pandas_object(obj, index=False).to_numpy().tobytes())
    elif isinstance(obj, pd.Series):
        h.update(pd.util.hash_pandas_object(obj, index=False).to_numpy().tobytes())
    elif isinstance(obj, (list, tuple)):
        h.update(b"[")
        for x in obj:
            _digest(h, x)
        h.update(b"]")
    elif isinstance(obj, dict):
        for k in sorted(obj, key=str):
            h.update(str(k).encode())
            _digest(h, obj[k])
    elif isinstance(obj, np.random.Generator):
        h.update(repr(obj.bit_generator.state).encode())
    elif _named(obj):  # a function of the package, whose code the key holds: its name
        h.update(f"{obj.__module__}.{obj.__qualname__}".encode())
    else:
        h.update(repr(obj).encode())


def _named(obj: Any) -> bool:
    """A module-level function of azlatency (a lambda or a nested function has no name
    that tells it from another; elsewhere, code the key does not hold may change)."""
    qualname = getattr(obj, "__qualname__", "<")
    module = getattr(obj, "__module__", None) or ""
    return callable(obj) and module.startswith("azlatency.") and "<" not in qualname


def _copy(value: Any) -> Any:
    """What a caller may change without changing the kept result (pandas copies on write)."""
    if isinstance(value, (pd.DataFrame, pd.Series)):
        return value.copy(deep=False)
    if isinstance(value, tuple):
        return tuple(_copy(v) for v in value)
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


def memo(fn=None, *, disk: bool = True):
    """Keep ``fn(tables, ...)``'s result per campaign store, code and arguments: ``@memo``;
    ``@memo(disk=False)`` keeps it in the process only (a frame of samples, not a statistic:
    as a file it was 260 MB, read back no faster than the samples it is cut from)."""
    if fn is None:
        return functools.partial(memo, disk=disk)
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def kept(tables, *args, **kwargs):
        mark = _of(tables)
        if mark is None or os.environ.get("AZLATENCY_NO_MEMO"):
            return fn(tables, *args, **kwargs)

        # every argument by name, defaults filled: f(t, level=0.95) is f(t)
        bound = signature.bind(tables, *args, **kwargs)
        bound.apply_defaults()
        given = {k: v for k, v in bound.arguments.items() if k != "tables"}
        h = hashlib.sha256(f"{fn.__module__}.{fn.__qualname__}\0{mark[0]}\0".encode())
        h.update(code_fingerprint().encode())
        _digest(h, given)
        key = h.hexdigest()
        if key in _MEMORY:
            return _copy(_MEMORY[key])
        folder = _generation(*mark) if disk else None
        path = folder / f"{fn.__name__}-{key[:32]}.pkl" if folder is not None else None
        value = _read(path)
        if value is None:
            with _alone(path):  # another kernel computing it: wait, then read its result
                value = _read(path)
                if value is None:
                    value = fn(tables, *args, **kwargs)
                    _write(path, value)
        if len(_MEMORY) >= _MEMORY_MAX:
            _MEMORY.pop(next(iter(_MEMORY)))
        _MEMORY[key] = value
        return _copy(value)

    return kept


_PRUNED: set[Path] = set()


def _generation(fingerprint: str, folder: Path | None) -> Path | None:
    """``<folder>/<store and code>/``: the entries of this store and this code.  Any other
    generation in ``folder`` is stale (a re-import or a code change: its keys are never asked
    for again) and is removed, once a process, before this one is written to."""
    if folder is None:
        return None
    here = folder / hashlib.sha256(f"{fingerprint}\0{code_fingerprint()}".encode()).hexdigest()[:16]
    if here not in _PRUNED:
        _PRUNED.add(here)
        for old in folder.iterdir() if folder.is_dir() else ():
            if old != here and old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
            elif old.suffix == ".pkl":  # entries of before generations
                old.unlink(missing_ok=True)
    return here


@contextmanager
def _alone(path: Path | None) -> Iterator[None]:
    """Hold an exclusive lock on ``path``'s lock file (POSIX ``flock``) while inside.  A report
    runs two kernels at once, and a campaign's first two pages would otherwise compute the
    same statistics side by side.  The lock only saves work: without one (Windows, a
    read-only data root) each computes, and the atomic write keeps either result whole."""
    if path is None or fcntl is None:
        yield
        return
    lock = path.with_name(f".{path.name}.lock")
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        f = lock.open("a")
    except OSError:
        yield
        return
    with f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            lock.unlink(missing_ok=True)  # a later waiter finds the result before locking
            fcntl.flock(f, fcntl.LOCK_UN)


def _read(path: Path | None) -> Any:
    if path is None or not path.is_file():
        return None
    try:
        with path.open("rb") as f:
            return pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        return None  # torn or from other code: computed again


def _write(path: Path | None, value: Any) -> None:
    """Write atomically (a temporary file renamed): a reader sees a whole entry or none."""
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False) as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(f.name, path)
    except OSError:
        pass  # a read-only data root: the result is kept in memory only


def clear() -> None:
    """Forget what this process kept (tests)."""
    _MEMORY.clear()
    _PRUNED.clear()
