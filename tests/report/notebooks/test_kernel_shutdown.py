"""The kernels papermill runs for us are shut down without the SIGINT jupyter_client sends
first: a kernel still finishing its last cell's handler logged ``ERROR | KeyboardInterrupt
caught in kernel.`` into ``make run``'s output (2 of 127 notebook runs, two kernels at a
time).  An interrupt asked for while the kernel runs still reaches it."""

from __future__ import annotations

import asyncio
import signal

from azlatency.report.execute import _kernel_manager


def test_shutdown_does_not_interrupt_but_an_interrupt_still_does():
    async def scenario() -> list[int]:
        km = _kernel_manager()(kernel_name="python3")
        sent: list[int] = []
        signal_kernel = km._async_signal_kernel

        async def record(signum):
            sent.append(signum)
            await signal_kernel(signum)

        km._async_signal_kernel = record
        await km.start_kernel(extra_arguments=["--IPKernelApp.log_level=ERROR"])
        try:
            await km.interrupt_kernel()
            assert sent == [signal.SIGINT]
        finally:
            await km.shutdown_kernel()
        assert not await km.is_alive()
        return sent

    assert asyncio.run(scenario()) == [signal.SIGINT]  # none more at shutdown
