"""TCP echo probes: the CSV of simonpainter/echo_test ``client/echo_client.py`` and the
client's log, as captured in ``tests/fixtures/echo_csv/`` (``SOURCES.md`` holds the script).

CSV: header ``packet_num,timestamp,send_time_ns,receive_time_ns,rtt_us``, CRLF (``csv.writer``),
``timestamp`` from ``datetime.now().isoformat(sep=" ")`` — which drops the fraction when the
microsecond is 0 — a few µs before ``send_time_ns``, and ``rtt_us`` as Python's ``repr`` of
``(receive − send) / 1000`` (``100.83``, ``100.0``).  The VMs run in UTC.

Log: one timestamp-led line per event — ``Connected to``, one ``packet N rtt X us`` per probe,
``TCP CONNECTION DROP at packet N: ...`` when the connection breaks, ``Done: N packets`` at
the end.  The session here is a wrapper that starts the client again after a drop, so one log
holds both connections.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .._render import Num, render

HEADER = b"packet_num,timestamp,send_time_ns,receive_time_ns,rtt_us\r\n"


def _stamps(us: np.ndarray) -> np.ndarray:
    """``isoformat(sep=" ")`` of UTC microsecond times, as an object array of str."""
    text = np.datetime_as_string(us.astype("datetime64[us]"), unit="us")
    text = np.char.replace(text, "T", " ")
    whole = us % 1_000_000 == 0
    if whole.any():
        text[whole] = np.char.rstrip(np.char.rstrip(text[whole], "0"), ".")
    return text


def csv_rows(tx_ns: np.ndarray, rx_ns: np.ndarray, stamp_us: np.ndarray) -> Iterator[bytes]:
    """The CSV file of one client connection (header and rows)."""
    yield HEADER
    n = len(tx_ns)
    # The timestamp strings have a fixed width except when the fraction is dropped, so they
    # are joined in Python; the numbers go through the renderer.
    stamps = _stamps(stamp_us)
    numbers = b"".join(
        c.tobytes()
        for c in render(
            [Num(tx_ns), b",", Num(rx_ns), b",", Num(rx_ns - tx_ns, 3, strip=True), b"\r\n"], n
        )
    )
    seq = np.arange(n)
    lines = numbers.split(b"\r\n")
    for k in range(0, n, 65536):
        yield b"".join(
            b"%d,%s,%s\r\n" % (i, s.encode(), row)
            for i, s, row in zip(
                seq[k : k + 65536].tolist(), stamps[k : k + 65536].tolist(), lines[k : k + 65536]
            )
        )


def _rtt_repr(d_ns: int) -> str:
    return repr(d_ns / 1000)


def _stamp(us: int) -> str:
    return str(_stamps(np.array([us]))[0])


def log_lines(
    dst_ip: str,
    port: int,
    csv_name: str,
    connected_us: int,
    tx_ns: np.ndarray,
    rx_ns: np.ndarray,
    *,
    drop_us: int | None = None,
    done: bool = False,
) -> list[str]:
    """The lines one client session writes to its log."""
    lines = [f"{_stamp(connected_us)} Connected to {dst_ip}:{port}, writing {csv_name}"]
    after = rx_ns // 1000 + 130  # printed just after the row is written
    stamps = _stamps(after).tolist()
    for k, (t, d) in enumerate(zip(stamps, (rx_ns - tx_ns).tolist())):
        lines.append(f"{t} packet {k} rtt {_rtt_repr(d)} us")
    n = len(tx_ns)
    if drop_us is not None:
        lines.append(
            f"{_stamp(drop_us)} TCP CONNECTION DROP at packet {n}: "
            "ConnectionResetError(104, 'Connection reset by peer')"
        )
    if done:
        lines.append(f"{_stamp(int(after[-1]) + 1_000_000)} Done: {n} packets")
    return lines
