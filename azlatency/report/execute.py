"""Execute the parameterized report notebooks with papermill.

The notebooks ship inside the package (``azlatency/report/notebooks/NN-area-question.ipynb``,
so a ``pip install``-ed azlatency has them; ``notebooks/`` of a checkout links there) and are
committed with outputs stripped.  Every path a notebook needs comes in as a parameter (papermill runs a notebook in
the working directory it is given, and a notebook must not depend on it).
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import AzlatencyError

NOTEBOOKS = Path(__file__).resolve().parent / "notebooks"


@dataclass(frozen=True)
class Executed:
    source: Path
    output: Path
    seconds: float
    error: str | None = None


def notebooks(folder: Path = NOTEBOOKS) -> list[Path]:
    """The report notebooks, in number order."""
    return sorted(p for p in folder.glob("[0-9][0-9]-*.ipynb"))


def parameters_of(path: Path) -> dict[str, object]:
    """Names and defaults of a notebook's ``parameters`` cell (papermill's own inspection)."""
    import papermill

    return {k: v["default"] for k, v in papermill.inspect_notebook(str(path)).items()}


def has_outputs(path: Path) -> bool:
    """True when a notebook carries outputs or execution counts (it must be stripped)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return any(
        c.get("outputs") or c.get("execution_count")
        for c in nb.get("cells", [])
        if c.get("cell_type") == "code"
    )


@functools.cache
def _kernel_manager():
    """jupyter_client's kernel manager, except in two things.

    * Shutting a kernel down does not first interrupt it.  The interrupt (SIGINT) is for a
      kernel stuck in a cell; papermill shuts a kernel down only after its last cell replied,
      and a kernel still finishing that cell's handler logged ``ERROR | KeyboardInterrupt
      caught in kernel.`` into ``make run``'s output (2 of 127 runs of two kernels at a time).
      A kernel that does not stop is still killed.
    * On a POSIX system the kernel listens on sockets of its own under the
      temporary folder (ZeroMQ's ``ipc`` transport), not on TCP ports.  jupyter_client picks
      five free ports, lets them go and the kernel binds them a moment later: a port another
      process took in between (two test workers, each starting kernels) failed the kernel
      with ``Address already in use`` and its notebook 60 s later (once in a ``make test``).
      Windows keeps TCP.
    """
    from jupyter_client.manager import AsyncKernelManager

    class Kernel(AsyncKernelManager):
        def __init__(self, **kw) -> None:
            if os.name == "posix" and kw.get("transport", "ipc") == "ipc":
                # The kernel's sockets are this path with -1 ... -5 appended: a path of its
                # own (jupyter_client's default, a relative 'kernel-ipc', is shared by every
                # kernel started in one folder), short enough for a socket's 107 bytes.
                tmp = tempfile.gettempdir()
                tmp = tmp if len(tmp) < 60 else "/tmp"
                kw["transport"] = "ipc"
                kw.setdefault("ip", os.path.join(tmp, f"azlatency-kernel-{uuid.uuid4().hex[:16]}"))
            super().__init__(**kw)

        async def _async_interrupt_kernel(self) -> None:
            if not self.shutting_down:
                await super()._async_interrupt_kernel()

    return Kernel


# Run silently in a reused kernel before a notebook's first cell (``report._kernel``).
_RESET = "__import__('azlatency.report._kernel', fromlist=['fresh']).fresh({cwd!r})"
# Every kernel's arguments.  ipykernel 7 warns on every start that its local TCP channel is
# unencrypted; errors still show, the warning would bury `make run`'s output.
KERNEL_ARGS = ("--IPKernelApp.log_level=ERROR",)
# A kernel started ahead (``Kernels.start``): what nbclient adds to the arguments of a kernel
# it starts (its in-memory history), and the notebooks' imports, run while the kernel starts.
_AHEAD_ARGS = (
    "--HistoryManager.hist_file=:memory:",
    "--IPKernelApp.exec_lines=__import__('azlatency.report._kernel', fromlist=['warm']).warm()",
)
_ENGINE = "azlatency-warm"


@functools.cache
def _client_class():
    """papermill's notebook client, given the kernel's kept client (``kc``) and running
    ``reset_code`` (``report._kernel.fresh``) before the first cell."""
    from papermill.clientwrap import PapermillNotebookClient

    class Client(PapermillNotebookClient):
        def __init__(self, nb_man, *, reset_code: str, kc=None, **kw):
            super().__init__(nb_man, **kw)
            self.reset_code = reset_code
            self.kc = kc  # the kernel's client, kept from its last notebook (or None: a new one)

        def papermill_execute_cells(self):
            msg_id = self.kc.execute(self.reset_code, silent=True, store_history=False)
            reply = self.wait_for_reply(msg_id)
            if reply is None or reply["content"].get("status") != "ok":
                content = (reply or {}).get("content", {})
                raise AzlatencyError(
                    "a reused kernel could not be reset: "
                    f"{content.get('ename', 'no reply')}: {content.get('evalue', '')}"
                )
            super().papermill_execute_cells()

    return Client


@functools.cache
def _manager_class():
    """papermill's execution manager, writing the executed copy once, when the notebook ends
    (failed or not), instead of the whole notebook twice a cell: 30 writes of up to a
    megabyte of JSON, in this process, for a page of 15 cells."""
    from papermill.engines import NotebookExecutionManager

    class Manager(NotebookExecutionManager):
        def save(self, **kwargs):
            if self.end_time is not None:  # set by notebook_complete, just before its save
                super().save(**kwargs)

    return Manager


@functools.cache
def _warm_engine() -> str:
    """A papermill engine that runs a notebook in a kernel it is given and keeps it running:
    before the first cell, ``report._kernel.fresh`` gives the notebook what a new kernel would
    (an empty namespace, no figures, the first rcParams and warning filters, execution count 1,
    its folder as working directory).  The kernel's client is kept too (``kc``, handed back
    through ``keep_client``): a new one waits 0.2 s for the kernel's output channel to fall
    quiet before the first cell, once a notebook."""
    from papermill.engines import NBClientEngine, papermill_engines
    from papermill.utils import merge_kwargs, remove_args

    Client, Manager = _client_class(), _manager_class()

    class Warm(NBClientEngine):
        @classmethod
        def execute_notebook(cls, nb, kernel_name, output_path=None, **kwargs):
            # as Engine.execute_notebook, with our manager
            nb_man = Manager(
                nb,
                output_path=output_path,
                progress_bar=kwargs.pop("progress_bar", False),
                log_output=kwargs.get("log_output", False),
                autosave_cell_every=kwargs.pop("autosave_cell_every", 30),
            )
            nb_man.notebook_start()
            try:
                cls.execute_managed_notebook(nb_man, kernel_name, **kwargs)
            finally:
                nb_man.cleanup_pbar()
                nb_man.notebook_complete()
            return nb_man.nb

        @classmethod
        def execute_managed_notebook(
            cls,
            nb_man,
            kernel_name,
            log_output=False,
            stdout_file=None,
            stderr_file=None,
            start_timeout=60,
            execution_timeout=None,
            **kwargs,
        ):
            # as NBClientEngine's, with our client
            kwargs = remove_args(["input_path"], **kwargs)
            keep = kwargs.pop("keep_client", None)
            safe_kwargs = remove_args(["timeout", "startup_timeout"], **kwargs)
            final_kwargs = merge_kwargs(
                safe_kwargs,
                timeout=execution_timeout if execution_timeout else kwargs.get("timeout"),
                startup_timeout=start_timeout,
                kernel_name=kernel_name,
                log=logging.getLogger("papermill"),
                log_output=log_output,
                stdout_file=stdout_file,
                stderr_file=stderr_file,
            )
            client = Client(nb_man, **final_kwargs)
            try:
                out = client.execute()
            except BaseException:
                if client.kc is not None:
                    client.kc.stop_channels()
                raise
            if keep is not None:
                keep(client.kc)  # its channels stay open for the kernel's next notebook
            elif client.kc is not None:
                client.kc.stop_channels()
            return out

    papermill_engines.register(_ENGINE, Warm)
    return _ENGINE


class Kernels:
    """Warm kernels: one per thread, each running notebook after notebook, so the Python
    start and the imports of pandas, scipy, matplotlib and azlatency (3-5 s a notebook on 2
    cores) are paid once per thread, not once per notebook.  A kernel that failed a notebook
    is shut down and the thread's next notebook gets a new one.  Use as a context manager:
    every kernel is shut down on leaving."""

    def __init__(self, kernel: str = "python3") -> None:
        self.kernel = kernel
        self._local = threading.local()
        self._all: list = []
        self._ahead: list = []  # started by start(), not yet taken by a thread
        self._clients: list = []
        self._lock = threading.Lock()

    def start(self, n: int) -> None:
        """Start ``n`` kernels now, for the threads' first notebooks to take.  Each imports
        what the notebooks import while it starts (``report._kernel.warm``), so its 3-5 s
        run beside the caller's own work (importing the campaigns, planning the pages)
        instead of after it.  Returns once the processes are launched."""
        from jupyter_core.utils import run_sync

        for _ in range(n):
            km = _kernel_manager()(kernel_name=self.kernel)
            with _inline_backend():
                run_sync(km.start_kernel)(extra_arguments=[*KERNEL_ARGS, *_AHEAD_ARGS])
            with self._lock:
                self._all.append(km)
                self._ahead.append(km)

    def get(self):
        """This thread's kernel manager: one started ahead if one is left, else a new one
        (its kernel starts with the thread's first notebook)."""
        km = getattr(self._local, "km", None)
        if km is None:
            with self._lock:
                km = self._ahead.pop(0) if self._ahead else None
            if km is None:
                km = _kernel_manager()(kernel_name=self.kernel)
                with self._lock:
                    self._all.append(km)
            self._local.km = km
        return km

    def client(self):
        """This thread's kernel client, kept from its last notebook (None before the first)."""
        return getattr(self._local, "kc", None)

    def keep(self, kc) -> None:
        """Keep ``kc``, the client a notebook ran with, for this thread's next notebook."""
        if kc is not getattr(self._local, "kc", None):
            self._local.kc = kc
            with self._lock:
                self._clients.append(kc)

    def discard(self) -> None:
        """Shut this thread's kernel down (after a failed notebook)."""
        km = getattr(self._local, "km", None)
        kc = getattr(self._local, "kc", None)
        self._local.km = self._local.kc = None
        if kc is not None:
            with self._lock:
                self._clients.remove(kc)
            kc.stop_channels()
        if km is not None:
            _shutdown(km)

    def __enter__(self) -> Kernels:
        return self

    def __exit__(self, *exc) -> None:
        with self._lock:
            every, self._all = self._all, []
            clients, self._clients = self._clients, []
        for kc in clients:  # their threads are done: nothing else uses them now
            kc.stop_channels()
        for km in every:
            _shutdown(km)


def _shutdown(km) -> None:
    from jupyter_core.utils import run_sync

    if km.has_kernel:
        run_sync(km.shutdown_kernel)(now=False)


def execute(
    path: Path,
    out_dir: Path,
    parameters: dict[str, object] | None = None,
    *,
    kernel: str = "python3",
    timeout: int = 600,
    kernels: Kernels | None = None,
) -> Executed:
    """Run one notebook into ``out_dir`` with ``parameters``; raise on a failing cell.  With
    ``kernels``, in this thread's warm kernel (see :class:`Kernels`), else in a new one."""

    import papermill

    out_dir.mkdir(parents=True, exist_ok=True)
    output = out_dir / path.name
    start = time.perf_counter()
    warm: dict[str, object]
    if kernels is not None:
        warm = {
            "engine_name": _warm_engine(),
            "km": kernels.get(),
            "kc": kernels.client(),
            "keep_client": kernels.keep,
            "reset_code": _RESET.format(cwd=str(out_dir.resolve())),
        }
    else:
        warm = {"kernel_manager_class": _kernel_manager()}
    try:
        with _inline_backend():
            papermill.execute_notebook(
                str(path),
                str(output),
                parameters=parameters or {},
                kernel_name=kernel,
                # The kernel starts in out_dir (nbclient's ``resources`` path). papermill's own
                # ``cwd=`` would os.chdir this whole process for the run, which two notebooks
                # executing at once on threads turn into each other's folder.
                resources={"metadata": {"path": str(out_dir)}},
                progress_bar=False,
                execution_timeout=timeout,
                report_mode=False,
                extra_arguments=list(KERNEL_ARGS),
                **warm,
            )
    except papermill.PapermillExecutionError as exc:
        if kernels is not None:
            kernels.discard()
        raise AzlatencyError(
            f"notebook {path.name} failed in {_cell(output, exc)}: {exc.ename}: {exc.evalue}"
        ) from exc
    except BaseException:
        if kernels is not None:
            kernels.discard()  # timed out, died, or could not be reset: never reuse it
        raise
    return Executed(path, output, time.perf_counter() - start)


@contextlib.contextmanager
def _inline_backend() -> Iterator[None]:
    """A kernel started inside must use the inline backend so figures become outputs: a
    headless MPLBACKEND (e.g. Agg set by a test run) is taken out of the environment it
    inherits, and put back after."""
    backup = os.environ.pop("MPLBACKEND", None)
    try:
        yield
    finally:
        if backup is not None:
            os.environ["MPLBACKEND"] = backup


def _cell(output: Path, exc) -> str:
    """``cell 4 (id 'load')``: where a notebook failed, numbered as in the notebook itself.
    papermill's index counts the cells it adds to the executed copy (injected parameters, an
    error banner), so the failed cell is found there by its error output, then by its id."""
    try:
        cells = json.loads(output.read_text(encoding="utf-8"))["cells"]
        failed = next(
            c for c in cells if any(o.get("output_type") == "error" for o in c.get("outputs", []))
        )
        tags = failed.get("metadata", {}).get("tags", [])
        kind = " (papermill's injected parameters)" if "injected-parameters" in tags else ""
        return f"cell id {failed.get('id')!r}{kind}"
    except (OSError, ValueError, KeyError, StopIteration):
        return f"cell {exc.cell_index} of the executed copy"
