"""The kernels papermill runs for us are shut down without the SIGINT jupyter_client sends
first: a kernel still finishing its last cell's handler logged ``ERROR | KeyboardInterrupt
caught in kernel.`` into ``make run``'s output (2 of 127 notebook runs, two kernels at a
time).  An interrupt asked for while the kernel runs still reaches it.  And the kernels listen
on Unix sockets of their own, not on TCP ports another process may take first."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from azlatency.report.execute import _kernel_manager

_ARGS = ["--IPKernelApp.log_level=ERROR"]


def test_shutdown_does_not_interrupt_but_an_interrupt_still_does():
    async def scenario() -> list[int]:
        km = _kernel_manager()(kernel_name="python3")
        sent: list[int] = []
        signal_kernel = km._async_signal_kernel

        async def record(signum):
            sent.append(signum)
            await signal_kernel(signum)

        km._async_signal_kernel = record
        await km.start_kernel(extra_arguments=_ARGS)
        try:
            await km.interrupt_kernel()
            assert sent == [signal.SIGINT]
        finally:
            await km.shutdown_kernel()
        assert not await km.is_alive()
        return sent

    assert asyncio.run(scenario()) == [signal.SIGINT]  # none more at shutdown


@pytest.mark.skipif(os.name != "posix", reason="Windows kernels keep TCP")
def test_kernels_listen_on_sockets_of_their_own_not_on_ports():
    """Two kernels started at once run on Unix sockets, each under a path of its own, and
    leave none behind: no TCP port a test worker's other kernel could take between
    jupyter_client picking it and the kernel binding it."""

    async def scenario() -> tuple[list[str], list[str]]:
        kms = [_kernel_manager()(kernel_name="python3") for _ in range(2)]
        await asyncio.gather(*(km.start_kernel(extra_arguments=_ARGS) for km in kms))
        try:
            pids = []
            for km in kms:
                kc = km.client()
                kc.start_channels()
                await kc.wait_for_ready(timeout=60)
                reply = await kc.execute_interactive("import os; x = os.getpid()", timeout=60)
                assert reply["content"]["status"] == "ok"
                pids.append(km.provisioner.pid)
                kc.stop_channels()
            assert len(set(pids)) == 2
            return [km.transport for km in kms], [km.ip for km in kms]
        finally:
            await asyncio.gather(*(km.shutdown_kernel() for km in kms))

    transports, ips = asyncio.run(scenario())
    assert transports == ["ipc", "ipc"] and len(set(ips)) == 2
    for ip in ips:
        assert Path(ip).is_absolute() and len(ip) + 2 < 107
        assert not list(Path(ip).parent.glob(Path(ip).name + "-*"))  # cleaned up
