"""iputils ping's translated lines, read as the English lines they translate.

iputils translates its output with gettext: under ``LANG=de_DE.UTF-8`` a run reads ``64 Bytes
von 10.0.0.2: icmp_seq=1 ttl=64 Zeit=0.031 ms`` and ``--- 10.0.0.2 ping-Statistik ---``, ``5
Pakete übertragen, 5 empfangen, 0% packet loss, time 4006ms`` (a translation that lacked the
last two strings then).  ``english`` rewrites such a line into the English one iputils would
have printed, with the same numbers, so one grammar (``grammar.py``) reads both; the scanner
asks it only about a line no English pattern took.

``_PO`` holds, for each language, the translations (``msgstr``) of the format strings iputils
prints these lines with, gathered from iputils' ``po/*.po`` over their whole history up to
github.com/iputils/iputils commit 9900265 (fuzzy and obsolete entries left out): every
wording a release may have printed, typos included (``PINK``, ``čad``).  Each part also
matches its English format, for the translations that lacked it.  The numbers keep their
text; a decimal comma (``0,031``, cs and fr) becomes a point.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import product

# part -> the English format iputils prints it with (ping/ping_common.c, ping_output.c)
_ENGLISH = {
    "ping": ("PING %s (%s) ",),
    "data": ("%d(%d) bytes of data.",),
    "bytes_from": ("%d bytes from %s:",),
    "bytes": ("%d bytes ",),
    "from": ("from %s:",),
    "seq": (" icmp_seq=%u",),
    "from_error": ("From %s icmp_seq=%u ",),
    "no_answer": ("no answer yet for icmp_seq=%lu",),
    "ttl": (" ttl=%d",),
    "rtime": (" time=%s ms",),
    "dup": (" (DUP!)",),
    "title": ("--- %s ping statistics ---",),
    "tx": ("%ld packets transmitted, ",),
    "rx": ("%ld received",),
    "dups": (", +%ld duplicates",),
    "corrupted": (", +%ld corrupted",),
    "errors": (", +%ld errors",),
    "loss": (", %g%% packet loss",),
    "time": (", time %ldms",),
    "rtt": ("rtt min/avg/max/mdev = %s/%s/%s/%s ms",),
}

_PO: dict[str, dict[str, tuple[str, ...]]] = {
    "cs": {
        "ping": ("PINK %s (%s) ",),
        "data": ("%d (%d) datových bajtů.",),
        "bytes_from": ("%d bajtů od %s:",),
        "bytes": ("%d bajtů ",),
        "from": ("z\xa0%s:",),
        "seq": (" pořadí=%u",),
        "ttl": (" TTL=%d",),
        "rtime": (
            " čas=%ld ms",
            " čas=%ld,%01ld ms",
            " čas=%ld,%01ld\u202fms",
            " čas=%ld,%02ld ms",
            " čas=%ld,%02ld\u202fms",
            " čas=%ld,%03ld ms",
            " čas=%ld,%03ld\u202fms",
            " čas=%ld\u202fms",
            " čas=%s ms",
        ),
        "dup": (" (DUPL!)",),
        "from_error": ("Od %s pořadí=%u ",),
        "no_answer": ("žádná odpověď pro pořadí=%lu",),
        "title": ("--- Statistika pingů na %s ---", "--- Statistika pinků na %s ---"),
        "tx": ("%ld paketů odesláno, ",),
        "rx": ("%ld přijato",),
        "dups": (", +%ld duplikátů",),
        "corrupted": (", +%ld poškozených",),
        "errors": (", +%ld chyb",),
        "loss": (", %g%% ztráta paketů",),
        "time": (", čad %ld\u202fms", ", čas %ld ms", ", čas %ld\u202fms", ", čas %llu ms"),
        "rtt": (
            "RTT min/prům/max/s.odch = %ld,%03ld/%lu,%03ld/%ld,%03ld/%ld,%03ld\u202fms",
            "RTT min/prům/max/std.odch = %ld,%03ld/%lu,%03ld/%ld,%03ld/%ld,%03ld ms",
            "rtt min/prům/max/std.odch = %s/%s/%s/%s ms",
        ),
    },
    "de": {
        "data": ("%d(%d) Bytes an Daten.",),
        "bytes_from": ("%d Bytes von %s:",),
        "bytes": ("%d Bytes ",),
        "from": ("von %s:",),
        "rtime": (
            " Zeit=%ld ms",
            " Zeit=%ld.%01ld ms",
            " Zeit=%ld.%02ld ms",
            " Zeit=%ld.%03ld ms",
            " Zeit=%s ms",
        ),
        "from_error": ("Von %s icmp_seq=%u ",),
        "no_answer": ("noch keine Antwort für icmp_seq=%lu",),
        "title": (
            "--- %s Ping-Statistiken ---",
            "--- %s ping-Statistik ---",
            "--- %s ping-Statistiken ---",
        ),
        "tx": ("%ld Pakete übertragen, ",),
        "rx": ("%ld empfangen",),
        "dups": (", +%ld Duplikate",),
        "corrupted": (",+%ld beschädigt",),
        "errors": (", +%ld Fehler",),
        "loss": (", %g%% Paketverlust",),
        "time": (", Zeit %ldms", ", Zeit %llums"),
    },
    "es": {
        "data": ("%d(%d) bytes de datos.",),
        "bytes_from": ("%d bytes desde %s:",),
        "rtime": (" tiempo=%s ms",),
        "from_error": ("Origen %s icmp_seq=%u ",),
        "no_answer": ("aún sin respuesta para icmp_seq=%lu",),
        "title": ("--- %s estadísticas ping ---",),
        "tx": ("%ld paquetes transmitidos, ",),
        "rx": ("%ld recibidos",),
        "dups": (", +%ld duplicados",),
        "corrupted": (", +%ld corruptos",),
        "errors": (", +%ld errores",),
        "loss": (", %g%% paquetes perdidos",),
        "time": (", tiempo %llums",),
        "rtt": ("rtt min/med/máx/mdev = %ld.%03ld/%lu.%03ld/%ld.%03ld/%ld.%03ld ms",),
    },
    "fi": {
        "data": ("%d(%d) tavua dataa.",),
        "bytes_from": ("%d tavua %s:sta:",),
        "bytes": ("%d tavua ",),
        "from": ("%s:lta:",),
        "ttl": (" aika elää=%d",),
        "rtime": (
            " aika=%ld ms",
            " aika=%ld.%01ld ms",
            " aika=%ld.%02ld ms",
            " aika=%ld.%03ld ms",
            " aika=%s ms",
        ),
        "dup": (" (Kaksoiskappale!)",),
        "from_error": ("%s:lta icmp_seq=%u ",),
        "no_answer": ("ei vielä vastausta icmp_seq=%lu:lle",),
        "title": ("-- %s ping-tilastot --",),
        "tx": ("%ld paketteja lähetetty, ",),
        "rx": ("%ld otettu vastaan",),
        "dups": (", +%ld kaksoiskappaletta",),
        "corrupted": (", +%ld vioittuneet",),
        "errors": (", +%ld virhettä",),
        "loss": (", %g %% pakettihäviö", ", %g%% paketin menetys"),
        "time": (", aika %ld ms", ", aika %llu ms"),
        "rtt": (
            "rtt min/keskiarvo/maks/keskiarvopoikkeama = %s/%s/%s/%s ms",
            "rtt min/keskiarvo/maks/mdev = %ld.%03ld/%lu.%03ld/%ld.%03ld/%ld.%03ld ms",
        ),
    },
    "fr": {
        "data": ("%d(%d) octets de données.",),
        "bytes_from": ("%d\xa0octets de %s\xa0:",),
        "rtime": (
            " temps=%ld.%01ld\xa0ms",
            " temps=%ld.%02ld\xa0ms",
            " temps=%ld.%03ld\xa0ms",
            " temps=%ld\xa0ms",
            " temps=%s\xa0ms",
        ),
        "dup": (" (DUPLIQUÉ\u202f!)",),
        "from_error": ("De %s icmp_seq=%u ",),
        "no_answer": ("encore aucune réponse pour icmp_seq=%lu",),
        "title": ("--- statistiques ping %s ---",),
        "tx": ("%ld\xa0paquets transmis, ",),
        "rx": ("%ld reçus",),
        "dups": (", +%ld dupliqués",),
        "corrupted": (", +%ld corrompus",),
        "errors": (", +%ld erreurs",),
        "loss": (", %g\xa0%% paquets perdus",),
        "time": (", temps %ld\xa0ms", ", temps %llu\xa0ms"),
        "rtt": ("rtt min/moy/max/mdev = %ld,%03ld/%lu,%03ld/%ld,%03ld/%ld,%03ld ms",),
    },
    "id": {
        "data": ("%d(%d) byte data.",),
        "bytes_from": ("%d byte dari %s:",),
        "bytes": ("%d byte ",),
        "from": ("dari %s:",),
        "rtime": (
            " waktu=%ld ms",
            " waktu=%ld.%01ld ms",
            " waktu=%ld.%02ld ms",
            " waktu=%ld.%03ld ms",
            " waktu=%s ms",
        ),
        "from_error": ("Dari %s icmp_seq=%u ",),
        "no_answer": ("belum ada jawaban untuk icmp_seq=%lu",),
        "title": ("--- statistik ping %s ---",),
        "tx": ("%ld paket dikirim, ",),
        "rx": ("%ld diterima",),
        "dups": (", +%ld duplikat",),
        "corrupted": (", +%ld korup",),
        "errors": (", +%ld error",),
        "loss": (", %g%% paket hilang",),
        "time": (", waktu %ldms", ", waktu %llums"),
    },
    "it": {
        "data": ("%d(%d) byte di dati.",),
        "bytes": ("%d byte ",),
        "from": ("da %s:",),
        "rtime": (" tempo=%s ms",),
        "from_error": ("Da %s icmp_seq=%u ",),
        "no_answer": ("nessuna risposta ancora per icmp_seq=%lu",),
        "title": ("--- statistiche ping %s ---",),
        "tx": ("%ld pacchetti trasmessi, ",),
        "rx": ("%ld ricevuti",),
        "dups": (", +%ld duplicati",),
        "corrupted": (", +%ld corrotti",),
        "errors": (", +%ld errori",),
        "loss": (", %g%% pacchetti persi",),
        "time": (", tempo %llums",),
        "rtt": ("rtt min/media/max/mdev = %s/%s/%s/%s ms",),
    },
    "ja": {
        "data": ("%d(%d) バイトのデータ",),
        "bytes_from": ("%d バイト応答 送信元 %s:",),
        "rtime": (
            " 時間=%ld ミリ秒",
            " 時間=%ld.%01ldミリ秒",
            " 時間=%ld.%02ldミリ秒",
            " 時間=%ld.%03ldミリ秒",
            " 時間=%s ミリ秒",
        ),
        "dup": (" (重複!)",),
        "from_error": ("送信元 %s icmp_seq=%u ",),
        "no_answer": ("icmp_seq=%lu が未応答です", "icmp_seq=%lu が未応答です。"),
        "title": ("--- %s ping 統計 ---",),
        "tx": ("送信パケット数 %ld, ",),
        "rx": ("受信パケット数 %ld",),
        "dups": (", +%ld 重複",),
        "corrupted": (", +%ld 破損",),
        "errors": (", +%ld エラー",),
        "loss": (", パケット損失 %g%%",),
        "time": (", 時間 %ldミリ秒", ", 時間 %lluミリ秒"),
        "rtt": ("rtt 最小/平均/最大/mdev = %ld.%03ld/%lu.%03ld/%ld.%03ld/%ld.%03ldミリ秒",),
    },
    "ka": {
        "data": ("%d (%d) ბაიტი მონაცემები.",),
        "bytes_from": ("%d ბაიტი %s-დან:",),
        "bytes": ("%d ბაიტი ",),
        "from": ("%s-დან:",),
        "seq": (" icmp_seq =%u",),
        "ttl": (" ttl =%d",),
        "rtime": (
            " დრო = %ld მწმ",
            " დრო=%ld.%01ld მწმ",
            " დრო=%ld.%02ld მწმ",
            " დრო=%ld.%03ld მწმ",
            " დრო=%s მწმ",
        ),
        "from_error": ("%s -დან icm_seq=%u ",),
        "no_answer": ("პასუხის გარეშე. icmp_sql=%lu",),
        "title": ("--- %s-ის პინგის სტატისტიკა ----",),
        "tx": ("გადაცემულია %ld პაკეტი, ",),
        "rx": ("მიღებულია %ld",),
        "dups": (", +%ld ასლი",),
        "corrupted": (", +%ld გაფუჭებული",),
        "errors": (", +%ld შეცდომა",),
        "loss": (", %g%% პაკეტი დაიკარგა",),
        "time": (", დრო %ld მწმ", ", დრო %ldმწმ", ", დრო %lluმწმ"),
        "rtt": (
            "rtt მინ/საშ/მაქს/mdev = %ld.%03ld/%lu.%03ld/%ld.%03ld/%ld.%03ld მწმ",
            "rtt მინ/საშ/მაქს/mdev = %s/%s/%s/%s მწმ",
            "rtt მინგ/საშ/მაქს/mdev = %ld.%03ld/%lu.%03ld/%ld.%03ld/%ld.%03ld მწმ",
        ),
    },
    "kab": {
        "data": ("%d(%d) itamḍanen n yifeska.",),
        "bytes_from": ("%d itamḍanen seg %s:",),
        "bytes": ("%d ibiten ",),
        "from": ("seg %s:",),
        "rtime": (
            " akud=%ld mts",
            " akud=%ld.%01ld mts",
            " akud=%ld.%02ld mts",
            " akud=%s mts",
            " time=%ld.%03ld mts",
        ),
        "title": ("--- %s tidaddanin n ping ---",),
        "tx": ("%ld ikemmas yettwaṭfen, ",),
        "rx": ("%ld yettwaṭṭfen",),
        "errors": (", +%ld n tuccḍiwin",),
        "loss": (", %g%% d akemmus iruḥen",),
        "time": (", akud %llumts",),
        "rtt": ("rtt min/avg/max/mdev = %ld.%03ld/%lu.%03ld/%ld.%03ld/%ld.%03ld mts",),
    },
    "ko": {
        "data": ("자료의 %d(%d) 바이트.",),
        "bytes_from": ("%d 바이트 (%s에서):",),
        "bytes": ("%d 바이트 ",),
        "from": ("%s 에서:",),
        "rtime": (
            " 시간=%ld ms",
            " 시간=%ld.%01ld ms",
            " 시간=%ld.%02ld ms",
            " 시간=%ld.%03ld ms",
            " 시간=%s ms",
        ),
        "dup": (" (중복!)",),
        "from_error": ("%s에서 icmp_seq=%u ", "%s에서 보내는 icmp_seq=%u "),
        "no_answer": ("아직 응답이 없습니다(icmp_seq=%lu)",),
        "title": ("--- %s ping 통계 ---", "--- %s 핑 통계 ---"),
        "tx": ("%ld 패킷이 전송되었습니다, ", "%ld 패킷이 전송됨, "),
        "rx": ("%ld 수신되었습니다", "%ld 수신됨"),
        "dups": (", +%ld 중복되었습니다",),
        "corrupted": (", +%ld 손상되었습니다", ", +%ld 손상됨"),
        "errors": (", +%ld 오류",),
        "loss": (", %g%% 패킷 손실",),
        "time": (", 시간 %ldms", ", 시간 %llums"),
        "rtt": (
            "rtt 최소/평균/최대/표준편차 = %ld.%03ld/%lu.%03ld/%ld.%03ld/%ld.%03ld ms",
            "rtt 최소/평균/최대/표준편차 = %s/%s/%s/%s ms",
        ),
    },
    "pt_BR": {
        "data": ("%d(%d) bytes de dados.",),
        "bytes_from": ("%d bytes de %s:",),
        "from": ("de %s",),
        "rtime": (
            " tempo=%ld ms",
            " tempo=%ld.%01ld ms",
            " tempo=%ld.%02ld ms",
            " tempo=%ld.%03ld ms",
            " tempo=%s ms",
        ),
        "from_error": ("De %s icmp_seq=%u ",),
        "no_answer": ("nenhuma resposta ainda para icmp_seq=%lu",),
        "title": ("--- %s estatísticas de ping ---",),
        "tx": ("%ld pacotes transmitidos, ",),
        "rx": ("%ld recebidos",),
        "dups": (", +%ld duplicados",),
        "corrupted": (", +%ld corrompidos",),
        "errors": (", +%ld erros",),
        "loss": (", %g%% perda de pacote",),
        "time": (", tempo %ldms", ", tempo %llums"),
        "rtt": ("rtt mín/méd/máx/mdev = %ld.%03ld/%lu.%03ld/%ld.%03ld/%ld.%03ld ms",),
    },
    "ro": {
        "data": ("%d(%d) octeți de date.",),
        "bytes_from": ("%d octeți din %s:",),
        "bytes": ("%d octeți ",),
        "from": ("de la %s:",),
        "rtime": (
            " timp=%ld ms",
            " timp=%ld.%01ld ms",
            " timp=%ld.%02ld ms",
            " timp=%ld.%03ld ms",
            " timp=%s ms",
        ),
        "from_error": ("De la %s icmp_seq=%u ",),
        "no_answer": ("niciun răspuns încă pentru icmp_seq=%lu",),
        "title": ("--- statistici ping %s ---",),
        "tx": ("%ld pachete transmise, ",),
        "rx": ("%ld primite",),
        "dups": (", +%ld duplicate",),
        "corrupted": (", +%ld corupte",),
        "errors": (", +%ld erori",),
        "loss": (", %g%% pierderi de pachete",),
        "time": (", timp %llums",),
        "rtt": (
            "rtt min/med/max/mdev = %ld.%03ld/%lu.%03ld/%ld.%03ld/%ld.%03ld ms",
            "rtt min/med/max/mdev = %s/%s/%s/%s ms",
        ),
    },
    "tr": {
        "data": ("%d(%d) bayt veri.", "%zu(%zu) bayt veri."),
        "bytes_from": ("%d bayt, %s'den:",),
        "bytes": ("%d bayt veri ",),
        "from": ("%s'den:",),
        "rtime": (
            " zaman=%ld ms",
            " zaman=%ld.%01ld ms",
            " zaman=%ld.%02ld ms",
            " zaman=%ld.%03ld ms",
            " zaman=%s ms",
        ),
        "dup": (" (YİNELENEN!)",),
        "from_error": ("%s'den icmp_seq=%u ",),
        "no_answer": ("icmp_seq=%lu için henüz cevap yok",),
        "title": ("--- %s ping istatistikleri ---",),
        "tx": ("%ld paket iletildi, ",),
        "rx": ("%ld alındı",),
        "dups": (", +%ld yinelenen",),
        "corrupted": (", +%ld bozuk",),
        "errors": (", +%ld hata",),
        "loss": (", %%%g paket kaybı",),
        "time": (", zaman %ldms", ", zaman %llums"),
        "rtt": (
            "rtt en düşük/ortalama/en yüksek/mdev = %ld.%03ld/%lu.%03ld/%ld.%03ld/%ld.%03ld ms",
            "rtt en düşük/ortalama/en yüksek/mdev = %s/%s/%s/%s ms",
        ),
    },
    "uk": {
        "ping": ("ЛУНА-ІМПУЛЬС %s (%s) ", "ПІНГ %s (%s) "),
        "data": ("%d(%d) байтів даних.",),
        "bytes_from": ("%d байтів з %s:",),
        "bytes": ("%d байтів ",),
        "from": ("від %s:",),
        "rtime": (
            " час=%ld мс",
            " час=%ld.%01ld мс",
            " час=%ld.%02ld мс",
            " час=%ld.%03ld мс",
            " час=%s мс",
        ),
        "dup": (" (ДУБЛЮВАННЯ!)",),
        "from_error": ("З %s icmp_seq=%u ",),
        "no_answer": ("відповідь для icmp_seq=%lu ще не отримано",),
        "title": ("--- Статистика луна-імпульсів %s ---", "--- Статистика пінгування %s ---"),
        "tx": ("Надіслано %ld пакетів, ", "Передано %ld пакетів, "),
        "rx": ("отримано %ld",),
        "dups": (", +%ld дублікатів",),
        "corrupted": (", +%ld пошкоджено",),
        "errors": (", +%ld помилок",),
        "loss": (", втрачено %g%% пакетів",),
        "time": (", час %ld мс", ", час %llu мс"),
        "rtt": (
            "rtt мін/сер/макс/mdev = %ld.%03ld/%lu.%03ld/%ld.%03ld/%ld.%03ld мс",
            "rtt мін/сер/макс/mdev = %s/%s/%s/%s мс",
        ),
    },
    "zh_CN": {
        "data": ("%d(%d) 字节的数据。",),
        "bytes_from": ("%d 字节，来自 %s:", "%d 比特，来自 %s:"),
        "rtime": (
            " 时间=%ld 毫秒",
            " 时间=%ld.%01ld 毫秒",
            " 时间=%ld.%02ld 毫秒",
            " 时间=%ld.%03ld 毫秒",
            " 时间=%s 毫秒",
        ),
        "dup": (" (重复!)",),
        "from_error": ("来自 %s icmp_seq=%u ",),
        "no_answer": ("icmp_seq=%lu 未响应",),
        "title": ("--- %s ping 统计 ---",),
        "tx": ("已发送 %ld 个包， ",),
        "rx": ("已接收 %ld 个包",),
        "dups": (", +%ld 重复",),
        "corrupted": (", +%ld 损坏",),
        "errors": (", +%ld 错误",),
        "loss": (", %g%% 包丢失",),
        "time": (", 耗时 %ld 毫秒", ", 耗时 %llu 毫秒"),
        "rtt": ("rtt 最小/平均/移动平均/最大 = %ld.%03ld/%lu.%03ld/%ld.%03ld/%ld.%03ld ms",),
    },
    "zh_Hant": {
        "data": ("%d(%d) 位元組的資料。",),
        "bytes_from": ("%d 位元組來自 %s :",),
        "rtime": (" 時間=%s 毫秒",),
        "from_error": ("來自 %s icmp_seq=%u ",),
        "no_answer": ("icmp_seq=%lu 尚未有答案",),
        "errors": (", +%ld 錯誤",),
        "loss": (", %g%% 封包遺失",),
        "time": (", 時間 %llums",),
    },
}

# po names as the Windows dialects name their languages (grammar._WINDOWS)
_LANG = {"zh_CN": "zh", "zh_Hant": "zh-tw", "pt_BR": "pt-br"}

_NUMBER = r"(\d+(?:[.,]\d+)?)"
_TOKEN = re.compile(r"%l?[du]\s*[.,]\s*%0\dl?d|%(?:ld|lu|llu|zu|d|u)|%g|%s|%%|[\s\u00a0\u202f]+|.")


def _regex(fmt: str, text: bool) -> str:
    """A format as a pattern: integers and decimals as groups, ``%s`` as text (``text``) or a
    number, any run of spaces (no-break ones too) as optional space."""
    out = []
    for tok in _TOKEN.findall(fmt):
        if tok.startswith("%") and tok not in ("%s", "%%", "%g") and len(tok) > 4:
            out.append(_NUMBER)  # "%ld.%03ld": a decimal
        elif tok in ("%ld", "%lu", "%llu", "%zu", "%d", "%u"):
            out.append(r"(\d+)")
        elif tok == "%g" or (tok == "%s" and not text):
            out.append(_NUMBER)
        elif tok == "%s":
            out.append(r"(.+?)")
        elif tok == "%%":
            out.append("%")
        elif not tok.strip():
            out.append(r"\s*")
        else:
            out.append(re.escape(tok))
    return "".join(out)


@cache
def _parts(part: str, text: bool = False) -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each wording of ``part`` (English, then every language's) with its language."""
    seen = {_regex(fmt, text): "en" for fmt in _ENGLISH[part]}
    for lang, words in _PO.items():
        for fmt in words.get(part, ()):
            seen.setdefault(_regex(fmt, text), _LANG.get(lang, lang))
    return tuple((re.compile(p), lang) for p, lang in seen.items())


@cache
def _bytes_from() -> tuple[tuple[re.Pattern[str], str], ...]:
    """'%d bytes from %s:' as one string (older iputils) or two, each maybe translated, and
    the sequence number after it (an address may hold colons: one pattern backtracks)."""
    whole = [(p.pattern, lang) for p, lang in _parts("bytes_from", True)]
    pairs = product(_parts("bytes", True), _parts("from", True))
    split = [(a.pattern + b.pattern, la if la != "en" else lb) for (a, la), (b, lb) in pairs]
    heads = dict(whole + split)
    seqs = [(p.pattern, lang) for p, lang in _parts("seq")] + [(r"\s*icmp_req=(\d+)", "en")]
    return tuple(
        (re.compile(head + seq + r"(\s+ident=\d+)?"), lh if lh != "en" else ls)
        for (head, lh), (seq, ls) in product(heads.items(), seqs)
    )


def _first(table, line: str, pos: int, optional: bool = False):
    """The first wording of a part that matches ``line`` at ``pos``: (match, language)."""
    for pattern, lang in table:
        if m := pattern.match(line, pos):
            return m, lang
    return (None, None) if optional else None


def _dot(text: str) -> str:
    return text.replace(",", ".")


_TS = re.compile(r"\s*(\[\d+\.\d+\] )?")


def english(line: str) -> tuple[str, str] | None:
    """The English line iputils prints for a translated ``line``, and the language; None for
    a line that is not one of iputils' translated lines (or is English already)."""
    s = line.strip()
    if not _DIGIT.search(s):
        return None
    seq, tx, ping = _gates()
    readers = (_reply, _from_error, _no_answer) if seq.search(s) else ()
    if tx.search(s):
        readers += (_packets,)
    if s[:3].lower() == "rtt":
        readers += (_rtt,)
    if s.startswith("--"):
        readers += (_title,)
    elif s.startswith(ping):
        readers += (_header,)
    for read in readers:
        out = read(s)
        if out is not None and out[1] != "en":
            return out
    return None


_DIGIT = re.compile(r"\d")


@cache
def _gates() -> tuple[re.Pattern[str], re.Pattern[str], tuple[str, ...]]:
    """A word of each kind of line, one of which a line must hold to be asked about: the
    sequence number's (replies, errors, "no answer yet"), the packets line's, the header's
    first word."""
    seq = (*_words("seq"), *_words("from_error"), *_words("no_answer"), "icmp_req")
    either = lambda words: re.compile("|".join(map(re.escape, sorted(set(words)))))  # noqa: E731
    return either(seq), either(_words("tx")), _words("ping")


@cache
def _words(part: str) -> tuple[str, ...]:
    """A word every wording of ``part`` holds (its longest), to leave the patterns unasked
    on lines that hold none: most lines a scanner gives here are no ping output."""
    out = set()
    for words in (*_PO.values(), _ENGLISH):
        for fmt in words.get(part, ()):
            literal = re.sub(r"%[a-z0-9.]*[a-z%]", " ", fmt).replace(",", " ").split()
            if literal:
                out.add(literal[0] if part == "ping" else max(literal, key=len).strip("=:"))
    return tuple(sorted(out))


@cache
def unread_time() -> re.Pattern[str]:
    """A time field left in a reply's rest, one the reply's pattern could not read
    ('time=nan ms', 'Zeit=nan ms'): 'time' and its word in every translation."""
    words = sorted({"time", *(w for w in _words("rtime") if w.isalpha())}, key=len, reverse=True)
    return re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, words))})[=<]\S*(?: ?m?s\b)?")


def _reply(s: str) -> tuple[str, str] | None:
    if "=" not in s:
        return None
    ts = _TS.match(s)
    pos, langs = ts.end(), []
    got = _first(_bytes_from(), s, pos)
    if got is None:
        return None
    m, lang = got
    size, src, seq, ident = m.groups()
    langs.append(lang)
    head = f"{ts.group(1) or ''}{size} bytes from {src.strip()}: icmp_seq={seq}"
    out, pos = head + (ident or ""), m.end()
    for part, english_fmt in (("ttl", " ttl={}"), ("rtime", " time={} ms")):
        m, lang = _first(_parts(part), s, pos, optional=True)
        if m is not None:
            out, pos = out + english_fmt.format(_dot(m.group(1))), m.end()
            langs.append(lang)
    rest = s[pos:]
    for pattern, lang in _parts("dup"):
        if pattern.search(rest) and lang != "en":
            rest, langs = pattern.sub(" (DUP!)", rest), [*langs, lang]
    return out + rest, next((x for x in langs if x != "en"), "en")


_SEQUENCE = (
    ("tx", "{} packets transmitted, ", False),
    ("rx", "{} received", False),
    ("dups", ", +{} duplicates", True),
    ("corrupted", ", +{} corrupted", True),
    ("errors", ", +{} errors", True),
    ("loss", ", {}% packet loss", False),
    ("time", ", time {}ms", True),
)


def _packets(s: str) -> tuple[str, str] | None:
    if "%" not in s:
        return None
    out, pos, langs = "", 0, []
    for part, english_fmt, optional in _SEQUENCE:
        got = _first(_parts(part), s, pos, optional)
        if got is None:
            return None
        m, lang = got
        if m is not None:
            out, pos = out + english_fmt.format(_dot(m.group(1))), m.end()
            langs.append(lang)
    if s[pos:].strip():
        return None
    return out, next((x for x in langs if x != "en"), "en")


def _rtt(s: str) -> tuple[str, str] | None:
    if "/" not in s or "=" not in s:
        return None
    for pattern, lang in _parts("rtt"):
        if m := pattern.match(s):
            extra = s[m.end() :]
            if extra.strip() and not extra.startswith(","):
                continue
            values = "/".join(_dot(v) for v in m.groups())
            return f"rtt min/avg/max/mdev = {values} ms{extra}", lang
    return None


def _title(s: str) -> tuple[str, str] | None:
    if not s.startswith("--"):
        return None
    for pattern, lang in _parts("title", True):
        if (m := pattern.fullmatch(s)) and " " not in m.group(1).strip():
            return f"--- {m.group(1).strip()} ping statistics ---", lang
    return None


@cache
def _header_pattern() -> re.Pattern[str]:
    data = "|".join(p.pattern for p, _ in _parts("data"))
    alternation = "|".join(map(re.escape, _words("ping")))
    return re.compile(rf"(?:{alternation}) (?P<mid>.+?) ?(?:{data})\s*")


def _header(s: str) -> tuple[str, str] | None:
    if "(" not in s:
        return None
    m = _header_pattern().fullmatch(s)
    if m is None:
        return None
    a, b = (g for g in m.groups()[1:] if g is not None)
    tail = m.group(0)[m.start("mid") + len(m["mid"]) :].strip()
    lang = next((lang for p, lang in _parts("data") if p.fullmatch(tail)), "en")
    return f"PING {m['mid']} {a}({b}) bytes of data.", lang


def header_end(line: str) -> int | None:
    """Where a translated header that opens ``line`` ends, when more of the line follows it
    (the next line run into it by a lost line break); None otherwise."""
    s = line.lstrip(" \t")
    if "(" not in s or not s.startswith(_gates()[2]):
        return None
    m = _header_pattern().match(s)
    if m is None or not s[m.end() :].strip():
        return None
    return len(line) - len(s) + m.end()


def _from_error(s: str) -> tuple[str, str] | None:
    """``Von 10.0.0.1 icmp_seq=1 Zielhost nicht erreichbar``: the message stays as printed."""
    ts = _TS.match(s)
    for pattern, lang in _parts("from_error", True):
        if m := pattern.match(s, ts.end()):
            src, seq = m.groups()
            return f"{ts.group(1) or ''}From {src} icmp_seq={seq} {s[m.end() :]}", lang
    return None


def _no_answer(s: str) -> tuple[str, str] | None:
    ts = _TS.match(s)
    for pattern, lang in _parts("no_answer"):
        if m := pattern.fullmatch(s, ts.end()):
            return f"{ts.group(1) or ''}no answer yet for icmp_seq={m.group(1)}", lang
    return None
