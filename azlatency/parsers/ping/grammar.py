"""The lines ping prints, one regex each, and a scanner that names every line of a block.

Used by ``ping.locate`` (which lines are ping output) and ``ping.parse`` (what each one says).
The dialects:

* Linux iputils (checked against iputils 20221126; its translations through ``l10n.py``):
  ``PING h (ip) 56(84) bytes of data.``,
  ``64 bytes from ip: icmp_seq=1 ttl=64 time=0.029 ms``, ``-D`` ``[1700000000.123456]``
  prefixes, ``-O`` ``no answer yet for icmp_seq=N``, ``From ip icmp_seq=N <ICMP error>``,
  ``(DUP!)``, ``N packets transmitted, M received, +D duplicates, +E errors, X% packet loss,
  time Tms`` and ``rtt min/avg/max/mdev = a/b/c/d ms[, pipe N]``.
* BusyBox 1.35: ``PING h (ip): 56 data bytes``, ``seq=0`` (no ``icmp_``), ``M packets
  received`` and ``round-trip min/avg/max = a/b/c ms``.
* macOS / FreeBSD: the BusyBox header, ``icmp_seq=0``, ``Request timeout for icmp_seq N``
  (macOS only), ``0.0% packet loss`` and ``round-trip min/avg/max/stddev``.
* Windows ``ping.exe`` in English, German, French, Spanish, Japanese, Chinese (simplified
  and traditional) and Russian (``_WINDOWS`` below), and PowerShell ``Test-Connection`` tables (5.1 and 7).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .._lines import ELIDED, STRAY_LINES, pieces, unjoin
from . import l10n

# ---------------------------------------------------------------------------------------------
# Unix dialects (iputils, BusyBox, BSD/macOS).

# iputils -D prints "[%lu.%06lu] " before every line it writes for a packet.
_TS = r"(?:\[(?P<ts>\d+\.\d+)\] )?"
# The host may be empty ("PING  (127.0.0.1)"); iputils' IPv6 header names the address too,
# "PING host(name (2a00:1450::200e)) 56 data bytes"; -I prints "from ::1 lo: " or, with no
# interface, "from 10.0.0.2 : ".
UNIX_HEADER = re.compile(
    r"PING (?P<host>\S*?) ?\((?:(?P<rname>[^()\s]+) \((?P<rip>[^)\s]+)\)|(?P<ip>[^)\s]+))\)"
    r"(?: from (?P<src>\S+?)(?: (?P<iface>[^\s:]+))?)? ?(?P<colon>:)? "
    r"(?P<payload>\d+)(?:\((?P<total>\d+)\))? (?P<tail>bytes of data\.|data bytes)\s*"
)
# macOS ping6: "PING6(56=40+8+8 bytes) ::1 --> ::1"
BSD_PING6_HEADER = re.compile(
    r"PING6\((?P<total>\d+)=40\+8\+(?P<payload>\d+) bytes\) (?P<src>\S+) --> (?P<ip>\S+)\s*"
)
UNIX_REPLY = re.compile(
    _TS + r"(?P<bytes>\d+) bytes from (?P<src>.+?)[:,] (?P<key>icmp_seq|icmp_req|seq)=(?P<seq>\d+)"
    r"(?: ident=\d+)?(?: (?:ttl|hlim)=(?P<ttl>\d+))?"
    r"(?: time(?P<op>[=<])(?P<ms>\d+(?:\.\d+)?) ?ms)?"
    # not a time in µs: "64 bytes from 10.1.1.2:7: seq=1 time=108.204 μs" is echo_client.py's
    r"(?P<rest>(?! ?time=\d+(?:\.\d+)? ?(?:μs|µs|us)\b).*?)\s*"
)
# What is left of a reply cut inside its fields: "t", "ttl=", "tim", "time=0.06", "time=0.065 m"
# (the time needs its unit to be read; without it the line ends mid-number).
_CUT_FIELD = re.compile(
    r"(?:t|tt|ttl|ttl=|h|hl|hli|hlim|hlim=|i|id|ide|iden|ident|ident="
    r"|ti|tim|time|time[=<]\d*(?:\.\d*)?(?: ?m)?)"
)
NO_ANSWER = re.compile(_TS + r"no answer yet for icmp_seq=(?P<seq>\d+)\s*")  # iputils -O
REQUEST_TIMEOUT = re.compile(r"Request timeout for icmp_seq (?P<seq>\d+)\s*")  # macOS
# iputils: "From 10.202.0.1 icmp_seq=1 Destination Host Unreachable" (errors read from the
# socket's error queue), "From 10.0.0.1 (10.0.0.1) icmp_seq=1 Time to live exceeded" and
# "From 10.0.0.1: icmp_seq=1 Redirect Host(...)" (ICMP packets).  icmp_seq is required: prose
# starts with "From" too ("From these tests, ..." in seed 004).
FROM_ERROR = re.compile(
    _TS + r"From (?P<src>\S+?(?: \([^)]*\))?):? icmp_seq=(?P<seq>\d+) (?P<msg>\S.*?)\s*"
)
# BSD: "92 bytes from 10.0.0.1: Destination Host Unreachable" (then an IP header dump)
# or, with a name, "92 bytes from router.lan (192.168.1.1): Destination Host Unreachable"
BSD_ERROR = re.compile(
    r"(?P<bytes>\d+) bytes from (?P<src>\S+?(?: \([^)\s]*\))?): (?P<msg>[A-Z][A-Za-z ]+)\s*"
)
BSD_IP_DUMP = re.compile(r"Vr HL TOS\s+Len\s+ID\s+Flg\s+off\s+TTL\s+Pro\s+cks\s+Src\s+Dst\s*")
# "ping: sendto: Network unreachable" (BusyBox, BSD), "ping: sendmsg: ..." (iputils)
SEND_ERROR = re.compile(_TS + r"ping6?: (?P<msg>send(?:to|msg)(?:\(\))?: .+?)\s*")
STATS_TITLE = re.compile(r"--- (?P<host>\S*) ?ping6? statistics ---\s*")  # host may be empty
PACKETS = re.compile(r"(?P<tx>\d+) packets transmitted, (?P<rest>.+?)\s*")
PACKETS_PARTIAL = re.compile(r"(?P<tx>\d+) packets transmitted\s*")
RTT = re.compile(
    r"(?P<label>rtt|round-trip) (?P<names>min/avg/max(?:/(?:mdev|stddev|std-dev))?) = "
    r"(?P<vals>\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?){2,3}) ms(?:, (?P<extra>.*?))?\s*"
)
PIPE = re.compile(r"pipe (?P<pipe>\d+)\s*")
# Lines ping may print among its output that say nothing about packets.
NEUTRAL = re.compile(
    r"(?:WARNING: .*|ping6?: [Ww]arning: .*|ping6?: sock\d\.fd: .*|ai->ai_\w+: .*"
    r"|\^C|Control-C|\s*)"
)

# Parts of the packets line, in any order after "N packets transmitted, ".
_PART_RECEIVED = re.compile(r"(?P<n>\d+) (?P<packets>packets )?received")
_PART_PLUS = re.compile(r"\+?(?P<n>\d+) (?P<what>duplicates|errors|corrupted)")
_PART_LOSS = re.compile(r"(?P<pct>\d+(?:\.\d+)?)% packet loss")
_PART_TIME = re.compile(r"time (?P<ms>\d+)ms")
_WRAPPED_TIME = re.compile(r"\s*(?P<ms>\d+)ms\s*")


def packets_parts(rest: str) -> dict[str, Any] | None:
    """The counts after ``N packets transmitted, ``; None when a part is not understood.
    Counts stay digit strings: the parser turns them into int64 with the line number at hand
    (a damaged count must be a located error, and this scanner also serves ``locate``)."""
    out: dict[str, Any] = {}
    for part in rest.split(", "):
        if m := _PART_RECEIVED.fullmatch(part):
            out["received"] = m["n"]
            out["packets_word"] = bool(m["packets"])
        elif m := _PART_PLUS.fullmatch(part):
            out[m["what"]] = m["n"]
            out["plus"] = part.startswith("+")
        elif m := _PART_LOSS.fullmatch(part):
            out["loss"] = m["pct"]
        elif m := _PART_TIME.fullmatch(part):
            out["time_ms"] = m["ms"]
        elif part == "time" and rest.endswith(", time"):
            out["time_cut"] = True  # '..., time' / '1532ms': a copy wrapped at its width
        else:
            return None
    return out if "received" in out and "loss" in out else None


# ---------------------------------------------------------------------------------------------
# Windows ping.exe, per language.  Whole-millisecond times; "time<1ms" below one.


@dataclass(frozen=True)
class WinLang:
    lang: str
    header: re.Pattern[str]
    reply: re.Pattern[str]  # groups ip, bytes, op, ms, ttl (bytes and ttl absent for IPv6)
    failure: re.Pattern[str]  # "Reply from x: Destination host unreachable." (groups ip, msg)
    timeout: re.Pattern[str]
    title: re.Pattern[str]
    packets: re.Pattern[str]  # groups sent, received, lost and (one-line languages) loss
    packets_loss: re.Pattern[str] | None  # second line "(0% Verlust)," where the line wraps
    rtt_title: re.Pattern[str]
    rtt: re.Pattern[str]  # groups min, max, avg


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _fr(pattern: str) -> re.Pattern[str]:
    """A French pattern that also matches its text with the accents stripped (a log passed
    through an ASCII-only tool: "Reponse de", "envoyes", "recus")."""
    for accented, plain in (("é", "e"), ("ç", "c"), ("ê", "e"), ("è", "e"), ("à", "a")):
        pattern = pattern.replace(accented, f"[{accented}{plain}]")
    return re.compile(pattern)


# The address Windows prints (never a name): IPv4, or IPv6 with a zone ("fe80::1%12").
_IP = r"(?P<ip>\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]*:[0-9A-Fa-f:.]*(?:%\w+)?)"
_DEST = r"(?P<host>\S+?)(?: \[(?P<ip>[^\]]+)\])?(?: from (?P<src>\S+))?"
_N = r"(?P<{}>\d+)"
# "time=14ms", "temps=12 ms", "tiempo<1m"; no unit at all: the line was cut in the number
_MS = r"(?P<op>[=<])\s?(?P<ms>\d+)\s?(?P<unit>m?s?)"
_CJK_SEP = r"\s*[,，、]\s*"

_WINDOWS: tuple[WinLang, ...] = (
    WinLang(
        "en",
        _c(rf"\s*Pinging {_DEST} with (?P<payload>\d+) bytes of data:\s*"),
        _c(rf"\s*Reply from {_IP}: (?:bytes=(?P<bytes>\d+) )?time{_MS}(?: TTL=(?P<ttl>\d+))?\s*"),
        _c(rf"\s*Reply from {_IP}: (?P<msg>[^=]+?)\s*"),
        _c(r"\s*Request timed out\.\s*"),
        _c(rf"\s*Ping statistics for {_IP}:\s*"),
        _c(
            r"\s*Packets: Sent = (?P<sent>\d+), Received = (?P<received>\d+), "
            r"Lost = (?P<lost>\d+) \((?P<loss>\d+)% loss\),?\s*"
        ),
        None,
        _c(r"\s*Approximate round trip times in milli-seconds:\s*"),
        _c(r"\s*Minimum = (?P<min>\d+)ms, Maximum = (?P<max>\d+)ms, Average = (?P<avg>\d+)ms\s*"),
    ),
    WinLang(
        "de",
        _c(rf"\s*Ping wird ausgeführt für {_DEST} mit (?P<payload>\d+) Bytes Daten:\s*"),
        _c(rf"\s*Antwort von {_IP}: (?:Bytes=(?P<bytes>\d+) )?Zeit{_MS}(?: TTL=(?P<ttl>\d+))?\s*"),
        _c(rf"\s*Antwort von {_IP}: (?P<msg>[^=]+?)\s*"),
        _c(r"\s*Zeitüberschreitung der Anforderung\.\s*"),
        _c(rf"\s*Ping-Statistik für {_IP}:\s*"),
        _c(
            r"\s*Pakete: Gesendet = (?P<sent>\d+), Empfangen = (?P<received>\d+), "
            r"Verloren = (?P<lost>\d+)\s*"
        ),
        _c(r"\s*\((?P<loss>\d+)% Verlust\),?\s*"),
        _c(r"\s*Ca\. Zeitangaben in Millisek\.:\s*"),
        _c(
            r"\s*Minimum = (?P<min>\d+)ms, Maximum = (?P<max>\d+)ms, Mittelwert = (?P<avg>\d+)ms\s*"
        ),
    ),
    WinLang(
        # Windows 10 writes a typographic apostrophe and two spaces: "requête 'Ping'  10.0.0.1";
        # with a name it says "'ping' sur host [ip]" (corpus: lucasvellinpatche TP1.md).
        "fr",
        _fr(
            rf"\s*Envoi d[’']une requête '[Pp]ing'\s+(?:sur )?{_DEST} avec (?P<payload>\d+) "
            r"octets de données\s*:\s*"
        ),
        _fr(
            rf"\s*Réponse de {_IP}\s*: (?:octets=(?P<bytes>\d+) )?temps{_MS}(?: TTL=(?P<ttl>\d+))?\s*"
        ),
        _fr(rf"\s*Réponse de {_IP}\s*: (?P<msg>[^=]+?)\s*"),
        _fr(r"\s*Délai d[’']attente de la demande dépassé\.\s*"),
        _fr(rf"\s*Statistiques Ping pour {_IP}\s*:\s*"),
        _fr(
            r"\s*Paquets\s*: envoyés = (?P<sent>\d+), reçus = (?P<received>\d+), "
            r"perdus = (?P<lost>\d+) \(perte (?P<loss>\d+)%\),?\s*"
        ),
        None,
        _fr(r"\s*Durée approximative des boucles en millisecondes\s*:\s*"),
        _fr(
            r"\s*Minimum = (?P<min>\d+) ?ms, Maximum = (?P<max>\d+) ?ms, Moyenne = (?P<avg>\d+) ?ms\s*"
        ),
    ),
    WinLang(
        # Spanish Windows cuts "time<1ms" to "tiempo<1m".
        "es",
        _c(rf"\s*Haciendo ping a {_DEST} con (?P<payload>\d+) bytes de datos:\s*"),
        _c(
            rf"\s*Respuesta desde {_IP}: (?:bytes=(?P<bytes>\d+) )?tiempo{_MS}(?: TTL=(?P<ttl>\d+))?\s*"
        ),
        _c(rf"\s*Respuesta desde {_IP}: (?P<msg>[^=]+?)\s*"),
        _c(r"\s*Tiempo de espera agotado para esta solicitud\.\s*"),
        _c(rf"\s*Estadísticas de ping para {_IP}:\s*"),
        _c(
            r"\s*Paquetes: enviados = (?P<sent>\d+), recibidos = (?P<received>\d+), "
            r"perdidos = (?P<lost>\d+)\s*"
        ),
        _c(r"\s*\((?P<loss>\d+)% perdidos\),?\s*"),
        _c(r"\s*Tiempos aproximados de ida y vuelta en milisegundos:\s*"),
        _c(r"\s*Mínimo = (?P<min>\d+)ms, Máximo = (?P<max>\d+)ms, Media = (?P<avg>\d+)ms\s*"),
    ),
    WinLang(
        "ja",
        _c(rf"\s*{_DEST}\s*に ping を送信しています (?P<payload>\d+) バイトのデータ:\s*"),
        _c(
            rf"\s*{_IP} からの応答: (?:バイト数 ?=\s?(?P<bytes>\d+) )?時間 ?{_MS}(?: TTL=(?P<ttl>\d+))?\s*"
        ),
        _c(rf"\s*{_IP} からの応答: (?P<msg>[^=]+?)\s*"),
        _c(r"\s*要求がタイムアウトしました。\s*"),
        _c(rf"\s*{_IP} の ping 統計:\s*"),
        _c(
            rf"\s*パケット数: 送信 = (?P<sent>\d+){_CJK_SEP}受信 = (?P<received>\d+){_CJK_SEP}"
            rf"損失 = (?P<lost>\d+) \((?P<loss>\d+)% の損失\)(?:{_CJK_SEP})?\s*"
        ),
        None,
        _c(r"\s*ラウンド トリップの概算時間 \(ミリ秒\):\s*"),
        _c(
            rf"\s*最小 = (?P<min>\d+)ms{_CJK_SEP}最大 = (?P<max>\d+)ms{_CJK_SEP}平均 = (?P<avg>\d+)ms\s*"
        ),
    ),
    WinLang(
        "zh",
        _c(rf"\s*正在 Ping {_DEST} 具有 (?P<payload>\d+) 字节的数据:\s*"),
        _c(rf"\s*来自 {_IP} 的回复: (?:字节=(?P<bytes>\d+) )?时间{_MS}(?: TTL=(?P<ttl>\d+))?\s*"),
        _c(rf"\s*来自 {_IP} 的回复: (?P<msg>[^=]+?)\s*"),
        _c(r"\s*请求超时。\s*"),
        _c(rf"\s*{_IP} 的 Ping 统计信息:\s*"),
        _c(
            rf"\s*数据包: 已发送 = (?P<sent>\d+){_CJK_SEP}已接收 = (?P<received>\d+){_CJK_SEP}"
            rf"丢失 = (?P<lost>\d+) \((?P<loss>\d+)% 丢失\)(?:{_CJK_SEP})?\s*"
        ),
        None,
        _c(r"\s*往返行程的估计时间\(以毫秒为单位\):\s*"),
        _c(
            rf"\s*最短 = (?P<min>\d+)ms{_CJK_SEP}最长 = (?P<max>\d+)ms{_CJK_SEP}平均 = (?P<avg>\d+)ms\s*"
        ),
    ),
)
# Russian (cp866): "Обмен пакетами с host [ip] с 32 байтами данных:" ("по с" with an address
# alone), "число байт=32 время=20мс", the loss on its own line or on the packets line
# (corpus search: Windows captures in READMEs and course notes).
_RU_MS = r"(?P<op>[=<])\s?(?P<ms>\d+)\s?(?P<unit>(?:мс)?)"
_WINDOWS += (
    WinLang(
        "ru",
        _c(rf"\s*Обмен пакетами с {_DEST}(?: по)? с (?P<payload>\d+) байтами данных:\s*"),
        _c(
            rf"\s*Ответ от {_IP}: (?:число байт=(?P<bytes>\d+) )?время{_RU_MS}"
            r"(?: TTL=(?P<ttl>\d+))?\s*"
        ),
        _c(rf"\s*Ответ от {_IP}: (?P<msg>[^=]+?)\s*"),
        _c(r"\s*Превышен интервал ожидания для запроса\.\s*"),
        _c(rf"\s*Статистика Ping для {_IP}:\s*"),
        _c(
            r"\s*Пакетов: отправлено = (?P<sent>\d+), получено = (?P<received>\d+), "
            r"потеряно = (?P<lost>\d+)(?:\s*\((?P<loss>\d+)% потерь\),?)?\s*"
        ),
        _c(r"\s*\((?P<loss>\d+)% потерь\),?\s*"),
        _c(r"\s*Приблизительное время приема-передачи в мс:\s*"),
        _c(
            r"\s*Минимальное = (?P<min>\d+) ?мсек, Максимальное = (?P<max>\d+) ?мсек, "
            r"Среднее = (?P<avg>\d+) ?мсек\s*"
        ),
    ),
    WinLang(
        # Traditional Chinese (cp950): "Ping host [ip] (使用 32 位元組的資料):", "時間<1ms".
        "zh-tw",
        _c(rf"\s*Ping {_DEST} \(使用 (?P<payload>\d+) 位元組的資料\):\s*"),
        _c(rf"\s*回覆自 {_IP}: (?:位元組=(?P<bytes>\d+) )?時間{_MS}(?: TTL=(?P<ttl>\d+))?\s*"),
        _c(rf"\s*回覆自 {_IP}: (?P<msg>[^=]+?)\s*"),
        _c(r"\s*要求等候逾時。\s*"),
        _c(rf"\s*{_IP} 的 Ping 統計資料:\s*"),
        _c(
            rf"\s*封包: 已傳送 = (?P<sent>\d+){_CJK_SEP}已收到 = (?P<received>\d+){_CJK_SEP}"
            rf"已遺失 = (?P<lost>\d+) \((?P<loss>\d+)% 遺失\)(?:{_CJK_SEP})?\s*"
        ),
        None,
        _c(r"\s*大約的來回時間 \(毫秒\):\s*"),
        _c(
            rf"\s*最小值 = (?P<min>\d+)ms{_CJK_SEP}最大值 = (?P<max>\d+)ms{_CJK_SEP}"
            r"平均 = (?P<avg>\d+)ms\s*"
        ),
    ),
)
# English-only failures that are not replies: "PING: transmit failed. General failure."
WIN_GENERAL_FAILURE = re.compile(
    r"\s*(?:PING: )?(?:[Tt]ransmit failed\. )?(?P<msg>General failure\.)\s*"
)
# A word each localized line holds, to skip the language regexes on unrelated lines.
_WIN_HINT = re.compile(
    r"Ping|ping|Reply|Request timed|Packets|Approximate|Minimum|Antwort|Zeitüberschreitung|Pakete"
    r"|Ca\. Zeit|Réponse|Délai|Paquets|Durée|Respuesta|Tiempo|Paquetes|Mínimo|応答|要求が|パケット"
    r"|ラウンド|最小|来自|请求超时|数据包|往返|最短|Verlust|perdidos|General failure"
    r"|Reponse|Delai|Duree|Обмен|Ответ|Превышен|Статистика|Пакетов|потерь|Приблизительное"
    r"|Минимальное|回覆自|要求等候|封包|大約|最小值"
)

# ---------------------------------------------------------------------------------------------
# PowerShell Test-Connection tables.

# Windows PowerShell 5.1: "Source  Destination  IPV4Address  IPV6Address  Bytes  Time(ms)"
PS5_HEADER = re.compile(
    r"\s*Source\s+Destination\s+IPV4Address\s+IPV6Address\s+Bytes\s+Time\(ms\)\s*"
)
# PowerShell 7: "Ping Source Address Latency BufferSize Status" with "(ms) (B)" on the next
# line, or on the same line when the console is wide enough.
PS7_HEADER = re.compile(
    r"\s*Ping\s+Source\s+Address\s+Latency(?:\s*\(ms\))?\s+BufferSize(?:\s*\(B\))?\s+Status\s*"
)
PS7_UNITS = re.compile(r"\s*\(ms\)\s+\(B\)\s*")
PS7_DEST = re.compile(r"\s*Destination: (?P<host>\S+)\s*")
PS_RULE = re.compile(r"\s*-+(?:\s+-+)+\s*")
PS7_ROW = re.compile(
    r"\s*(?P<seq>\d+)\s+(?P<src>\S+)\s+(?P<ip>\S+)\s+(?P<ms>\d+|\*)\s+(?P<bytes>\d+|\*)"
    r"\s+(?P<status>[A-Za-z]+)\s*"
)


# ---------------------------------------------------------------------------------------------
# The scanner.


@dataclass
class Event:
    """One line (or one piece of a line) with what it says."""

    idx: int  # 0-based line index in the block
    kind: str
    data: dict[str, Any] = field(default_factory=dict)


def _win_event(idx: int, line: str) -> Event | None:
    if not _WIN_HINT.search(line):
        return None
    for w in _WINDOWS:
        if m := w.reply.fullmatch(line):
            return Event(idx, "win_reply", {"lang": w.lang, **m.groupdict()})
        if m := w.failure.fullmatch(line):
            return Event(idx, "win_failure", {"lang": w.lang, **m.groupdict()})
        if w.timeout.fullmatch(line):
            return Event(idx, "win_timeout", {"lang": w.lang})
        if m := w.header.fullmatch(line):
            return Event(idx, "win_header", {"lang": w.lang, **m.groupdict()})
        if m := w.title.fullmatch(line):
            return Event(idx, "win_title", {"lang": w.lang, **m.groupdict()})
        if m := w.packets.fullmatch(line):
            return Event(idx, "win_packets", {"lang": w.lang, **m.groupdict()})
        if w.packets_loss is not None and (m := w.packets_loss.fullmatch(line)):
            return Event(idx, "win_packets_loss", {"lang": w.lang, **m.groupdict()})
        if w.rtt_title.fullmatch(line):
            return Event(idx, "win_rtt_title", {"lang": w.lang})
        if m := w.rtt.fullmatch(line):
            return Event(idx, "win_rtt", {"lang": w.lang, **m.groupdict()})
    if m := WIN_GENERAL_FAILURE.fullmatch(line):
        return Event(idx, "win_failure", {"lang": "en", "ip": None, "msg": m["msg"]})
    for w in _WINDOWS:
        m = _counts_cut(w).fullmatch(line)
        # the counts are whole only when they add up (a cut "Lost = 1" may have been "10")
        if m and int(m["sent"]) - int(m["received"]) == int(m["lost"]):
            # A transcript cut inside the packets line after its three counts ("Lost = 0
            # (0% l"): the counts stand, the loss is computed; the parser names the cut.
            data = {k: v for k, v in m.groupdict().items() if k != "tail"}
            return Event(idx, "win_packets", {"lang": w.lang, **data, "loss": None, "cut": True})
    return None


def _win_kind(line: str) -> str | None:
    """The kind of ``line`` when it is one of Windows ping's lines, whole."""
    event = _win_event(0, line)
    return None if event is None or _swallowed(event) else event.kind


def _swallowed(event: Event) -> bool:
    """A failure whose message holds words of Windows ping's own lines ('Reply from ::1:
    time<1msReply from ::1: time<1ms'): maybe the next line run into it."""
    return event.kind == "win_failure" and bool(_WIN_HINT.search(event.data.get("msg") or ""))


def _win_apart(line: str) -> list[str]:
    """Windows ping's lines a lost line break ran together into ``line`` (unjoin), or [].
    Only a line that opens as one of them is cut: unjoin tries every position against every
    language's patterns, which a page of prose saying 'ping' would pay line by line."""
    return unjoin(line, _win_kind) if _WIN_START.match(line) else []


def _unnamed(pattern: re.Pattern[str]) -> str:
    return re.sub(r"\(\?P<\w+>", "(?:", pattern.pattern)


# Whether a line opens as one of Windows ping's lines, in any language read: every field's
# pattern, unanchored at the end, its groups unnamed (the languages share their names).
_WIN_START = re.compile(
    "|".join(
        f"(?:{_unnamed(p)})"
        for w in _WINDOWS
        for p in (
            w.header,
            w.reply,
            w.failure,
            w.timeout,
            w.title,
            w.packets,
            w.packets_loss,
            w.rtt_title,
            w.rtt,
        )
        if p is not None
    )  # fmt: skip
)


def _win_joined(idx: int, part: str) -> Event:
    event = _win_event(idx, part)
    assert event is not None  # unjoin cut it into lines of a kind
    event.data["joined"] = True
    return event


@cache
def _counts_cut(w: WinLang) -> re.Pattern[str]:
    """``w.packets`` up to its ``lost`` count, then the start of what Windows prints after it
    (a space, a parenthesis, digits, '%', a word cut short)."""
    head = w.packets.pattern
    head = head[: head.index("(?P<lost>\\d+)") + len("(?P<lost>\\d+)")]
    return re.compile(head + r"(?P<tail>\s*\(?\s*[^\s)]*\s*[^\s)]*)")


_UNIX_SIMPLE = (
    (NO_ANSWER, "timeout"),
    (REQUEST_TIMEOUT, "timeout"),
    (FROM_ERROR, "error"),
    (SEND_ERROR, "error"),
    (STATS_TITLE, "title"),
    (RTT, "rtt"),
    (PIPE, "pipe"),
    (PACKETS_PARTIAL, "packets_partial"),
)
# Several replies run together on one line (a log whose line breaks were lost):
# "...time=122 ms664 bytes from 10.0.0.2: icmp_seq=11 ..." (corpus: csc458 bb-q100).
_GLUED = re.compile(r"(?<=ms)(\d+) bytes from ")
# Other lines of ping's run together the same way: the header and its first reply, a reply
# or an error line and an error line ("... Destination Host UnreachableFrom 10.202.0.1
# icmp_seq=4 ..."), a reply and BusyBox's or iputils' "ping: sendto: ..." error, the
# statistics title (in any language: "--- h ping-Statistik ---5 Pakete ...") and its packets
# line, the packets line and its round-trip line ("... time 3004msrtt min/avg/max/mdev =
# ...") or -O's "pipe 6", and two -D lines (each opens with its "[1795221974.394283] ").
_JOINED = re.compile(
    r"(?<=\S)(?=(?:rtt|round-trip) min/avg/max)|(?<=\S)(?=--- \S* ?ping6? statistics ---)"
    r"|(?<=---)(?=\d+ packets transmitted, )|(?<=\S ---)(?=\d+\D)"
    r"|(?<=\S)(?=ping: (?:sendto|sendmsg|recvmsg|recvfrom): )"
    r"|(?<=bytes of data\.)(?=\S)|(?<=data bytes)(?=\d)"
    r"|(?<=\S)(?=From \S+ icmp_seq=\d)|(?<=ms)(?=pipe \d+\s*$)|(?<=\S)(?=\[\d+\.\d+\] )"
)


# A line whose opening (its first two words and the space after them: '64 Bytes ', 'Von
# 10.77.40.1 ', '64 bajtů ') stands again right after a character that is not a space: two
# lines of the same kind run together by a lost line break, in any language iputils speaks
# ('... Zeit=0.059 ms64 Bytes von ...', '... ttl=6416 bytes from ...' without times).  The
# reply read as one took the second into its rest, without a word.  English replies with
# times are _GLUED's (a stray digit may stand before the size).
_OPENING = re.compile(r"\S+ \S+ ")


def _repeated(line: str) -> list[int]:
    """Where ``line``'s opening stands again after a character that is not a space."""
    s = line.lstrip(" \t")
    m = _OPENING.match(s)
    if m is None or len(m[0]) < 8 or _GLUED.search(s):
        return []
    opening, lead, cuts = m[0], len(line) - len(s), []
    at = s.find(opening, 1)
    while at > 0:
        if not s[at - 1].isspace():
            cuts.append(lead + at)
        at = s.find(opening, at + 1)
    return cuts


class Scanner:
    """Names lines one at a time.  Holds the little context some lines need: the open
    PowerShell table, the reply size the last header announced (to split glued lines), and
    whether the line before was a BSD IP-header dump title."""

    def __init__(self) -> None:
        self.table: dict[str, Any] | None = None  # open PowerShell table
        self.reply_bytes: str | None = None  # "64" after "PING x (ip) 56(84) bytes of data."
        self.after_dump_title = False
        self.time_cut: Event | None = None  # a packets line that ends in 'time' (wrapped)

    def scan(self, idx: int, line: str) -> list[Event]:
        """Events of one line: usually one; several for glued replies; ``unknown`` when the
        line is not ping output; ``blank``/``neutral`` for lines that carry nothing."""
        if self.after_dump_title:
            self.after_dump_title = False
            if re.fullmatch(r"\s*[0-9a-fA-F]{1,4}(?:\s+[0-9a-fA-F.]+)+\s*", line):
                return [Event(idx, "neutral")]
        if self.table is not None:
            events = self._table_line(idx, line)
            if events is not None:
                return events
        if not line.strip():
            return [Event(idx, "blank")]
        if self.time_cut is not None:
            cut, self.time_cut = self.time_cut, None
            if m := _WRAPPED_TIME.fullmatch(line):  # the packets line's time on its own line
                cut.data.update(time_ms=m["ms"], wrapped=idx)
                return [Event(idx, "neutral")]
        if ELIDED.fullmatch(line):  # replies left out of a paste ('...')
            return [Event(idx, "elided")]
        if _JOINED.search(line):
            return self._joined(idx, line)
        if (cuts := _repeated(line)) and (events := self._known_pieces(idx, line, cuts)):
            return events
        events = self._one(idx, line)
        if events[0].kind == "unknown" and (cut := l10n.header_end(line)):
            # a translated header with the next line run into it ('... 56(84) Bytes an
            # Daten.Von 10.77.40.1 icmp_seq=1 Zielhost nicht erreichbar')
            return self._known_pieces(idx, line, [cut]) or events
        return events

    def _known_pieces(self, idx: int, line: str, cuts: list[int]) -> list[Event] | None:
        """:meth:`_pieces` when every piece reads as one of ping's lines; else None (the line
        is read whole)."""
        events = self._pieces(idx, line, cuts)
        return None if any(e.kind == "unknown" for e in events) else events

    def _one(self, idx: int, line: str) -> list[Event]:
        if found := self._unix(idx, line):
            return found
        event = _win_event(idx, line)
        if (event is None or _swallowed(event)) and (parts := _win_apart(line)):
            return [_win_joined(idx, part) for part in parts]
        return [event or self._other(idx, line)]

    def _joined(self, idx: int, line: str) -> list[Event]:
        """The events of each of ping's lines run together on one line, each marked."""
        return self._pieces(idx, line, [m.start() for m in _JOINED.finditer(line)])

    def _pieces(self, idx: int, line: str, cuts: list[int]) -> list[Event]:
        """The events of each piece of ``line`` cut at ``cuts``, each marked as joined."""
        events = [e for piece in pieces(line, cuts) for e in self._one(idx, piece)]
        for e in events:
            e.data["joined"] = True
        return events

    def _unix(self, idx: int, line: str) -> list[Event] | None:
        # Indented output (a Markdown code block, a quoted mail) is still ping's; Windows'
        # and PowerShell's patterns allow the indent themselves.
        line = line.lstrip(" \t")
        if m := UNIX_REPLY.fullmatch(line):
            if m["ms"] is None and m["rest"].strip() and (found := self._translated(idx, line)):
                return found  # "64 bytes from ...: icmp_seq=1 ttl=64 tiempo=0.022 ms"
            if _GLUED.search(line):
                return self._glued(idx, line)
            data = self._size_fixed(m.groupdict())
            if data["ms"] is None and _CUT_FIELD.fullmatch(data["rest"].strip()):
                data["cut"] = True
            return [Event(idx, "reply", data)]
        if m := UNIX_HEADER.fullmatch(line):
            data = m.groupdict()
            rname, rip = data.pop("rname"), data.pop("rip")
            if rip is not None:  # IPv6 "host(name (addr))": the address, and the name if none
                data["ip"], data["host"] = rip, data["host"] or rname
            # Only to recognise reply sizes; the payload itself is read (int64-checked, with
            # its line) by the parser.
            self.reply_bytes = str(int(data["payload"]) + 8)  # ICMP echo header: 8 bytes
            return [Event(idx, "header", data)]
        if m := BSD_PING6_HEADER.fullmatch(line):
            self.reply_bytes = str(int(m["payload"]) + 8)
            return [Event(idx, "header", {**m.groupdict(), "host": m["ip"], "tail": "ping6"})]
        if m := PACKETS.fullmatch(line):
            parts = packets_parts(m["rest"])
            if parts is not None:
                event = Event(idx, "packets", {"tx": m["tx"], **parts})
                self.time_cut = event if parts.get("time_cut") else None
                return [event]
        for pattern, kind in _UNIX_SIMPLE:
            if m := pattern.fullmatch(line):
                return [Event(idx, kind, m.groupdict())]
        if m := BSD_ERROR.fullmatch(line):
            return [Event(idx, "error", m.groupdict())]
        if BSD_IP_DUMP.fullmatch(line):
            self.after_dump_title = True
            return [Event(idx, "neutral")]
        return self._translated(idx, line)

    def _translated(self, idx: int, line: str) -> list[Event] | None:
        """iputils in another language: the events of the English line it translates."""
        translated = l10n.english(line)
        if translated is None:
            return None
        text, lang = translated
        events = self._unix(idx, text)
        for e in events or ():
            e.data["l10n"] = lang
        return events

    def _glued(self, idx: int, line: str) -> list[Event]:
        cuts = [m.start() for m in _GLUED.finditer(line)]
        events = []
        for piece in pieces(line, cuts):
            m = UNIX_REPLY.fullmatch(piece)
            if m is None:
                events.append(Event(idx, "unknown", {"text": piece}))
                continue
            data = self._size_fixed(m.groupdict())
            data["glued"] = True
            events.append(Event(idx, "reply", data))
        return events

    def _size_fixed(self, data: dict[str, Any]) -> dict[str, Any]:
        """Where line breaks were lost, a stray digit stands before the reply size
        ("time=122 ms" + "6" + "64 bytes from", even at the start of a line): when the
        header announced 64 bytes, "664" is 64."""
        want = self.reply_bytes
        size = data["bytes"]
        if want and size != want and size.endswith(want) and len(size) <= len(want) + 2:
            data["bytes"] = want
            data["glued"] = True
        return data

    def _other(self, idx: int, line: str) -> Event:
        if PS5_HEADER.fullmatch(line):
            self.table = {"kind": "ps5", "header": line, "columns": None}
            return Event(idx, "ps_header", {"kind": "ps5"})
        if PS7_HEADER.fullmatch(line):
            self.table = {"kind": "ps7", "header": line, "columns": None}
            return Event(idx, "ps_header", {"kind": "ps7"})
        if m := PS7_DEST.fullmatch(line):
            return Event(idx, "ps_dest", m.groupdict())
        if NEUTRAL.fullmatch(line):
            return Event(idx, "neutral")
        return Event(idx, "unknown", {"text": line})

    def _table_line(self, idx: int, line: str) -> list[Event] | None:
        table = self.table
        assert table is not None
        if table["columns"] is None:
            if table["kind"] == "ps7" and PS7_UNITS.fullmatch(line):
                return [Event(idx, "neutral")]
            if PS_RULE.fullmatch(line):
                table["columns"] = [m.start() for m in re.finditer(r"-+", line)]
                table["width"] = len(line)  # PowerShell pads every row to the rule's width
                table["strays"] = 0
                return [Event(idx, "neutral")]
            if not line.strip() and table.get("strays", 0) < STRAY_LINES:
                # a blank line (or an emptied '>' quote marker) between header and rule
                table["strays"] = table.get("strays", 0) + 1
                return [Event(idx, "blank")]
            return self._stray_in_table(idx, line)
        if not line.strip():
            return [Event(idx, "blank")]  # the table stays open: PowerShell pads with blanks
        if table["kind"] == "ps7":
            if m := PS7_ROW.fullmatch(line):
                table["strays"] = 0
                return [Event(idx, "ps_row", {"kind": "ps7", **m.groupdict()})]
        else:
            row = _ps5_row(line, table["columns"])
            if row is not None:
                table["strays"] = 0
                return [Event(idx, "ps_row", {"kind": "ps5", **row})]
            if (rows := _ps5_rows(idx, line, table)) is not None:
                table["strays"] = 0
                return rows
        return self._stray_in_table(idx, line)

    def _stray_in_table(self, idx: int, line: str) -> list[Event] | None:
        """A line that is no part of the table: the table stays open over a few of them (a
        kernel message inside the output, which the parser names) unless the line is ping's
        own (a new header, the next table); past that it has ended."""
        table = self.table
        assert table is not None
        table["strays"] = table.get("strays", 0) + 1
        if table["strays"] > STRAY_LINES or not line.strip():
            self.table = None
            return None
        events = self._unix(idx, line) or [_win_event(idx, line) or self._other(idx, line)]
        # A line that carries nothing (a warning, a bare '>' prompt: 'neutral') is no new
        # output either: between the header and its rule, or among the rows, the table goes on.
        if self.table is table and all(e.kind in ("unknown", "neutral") for e in events):
            return events[:1]
        if self.table is table:
            self.table = None
        return None  # scan() reads the line again, as ping's own


def _ps5_rows(idx: int, line: str, table: dict[str, Any]) -> list[Event] | None:
    """A line holding several rows of a PowerShell 5.1 table, each padded to the rule's
    width, that lost line breaks ran together ('...  32       13       5CD225N9R5    8.8.8.8
    ...'): the rows, each marked ``joined``; None when it is no such line."""
    width, starts = table.get("width"), table["columns"]
    if not width or len(line.rstrip()) <= width:
        return None
    parts = [line[a : a + width] for a in range(0, len(line.rstrip()), width)]
    rows = [_ps5_row(part, starts) for part in parts]
    if any(row is None for row in rows):
        return None
    return [Event(idx, "ps_row", {"kind": "ps5", "joined": True, **row}) for row in rows if row]


def _ps5_row(line: str, starts: list[int]) -> dict[str, str] | None:
    """Cut a Windows PowerShell 5.1 ``Test-Connection`` row at the column starts of its
    dashed rule.  Source, Destination, IPV4Address, IPV6Address, Bytes, Time(ms).  A table
    whose runs of spaces a web page made one ('5CD225N9R5 8.8.8.8 8.8.8.8 32 14') has no
    columns left: its row is split at spaces, the one address standing for the empty one's
    column (no name in the table holds a space)."""
    if len(starts) != 6:
        return None
    cells = [line[a:b].strip() for a, b in zip(starts, [*starts[1:], len(line)])]
    src, dest, v4, v6, size, ms = cells
    if not (src and dest and size.isdecimal() and ms.isdecimal()):
        words = line.split()
        if len(words) not in (5, 6) or not (words[-2].isdecimal() and words[-1].isdecimal()):
            return None
        (src, dest, v4, *_, size, ms), v6 = words, ""  # the first address the row shows
    return {"src": src, "host": dest, "ip": v4 or v6, "bytes": size, "ms": ms}
