"""The one place that turns bytes into text.

Benchmark logs arrive as UTF-8 (with or without BOM), UTF-16 from PowerShell's ``>``,
Windows code pages from ``cmd.exe`` in other languages, with CRLF line ends, ANSI colour
escapes (sockperf prints ``ESC[2;35m``) and harness prefixes (``[STDOUT]``); copied through a
web page (no-break spaces, ``&lt;``) or a wrong guess of their encoding (mojibake).  Parsers see
clean ``\\n``-separated text; what was found is returned beside it so it can go into ``runs``.
Line numbers are preserved: nothing here adds or removes a line.
"""

from __future__ import annotations

import codecs
import html
import re
from dataclasses import dataclass

# CSI sequences (colours, cursor moves) and the two-byte escapes some terminals emit.
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|[@-Z\\-_])")
# Test harnesses (VirtualClient, CI runners) prefix captured lines with the stream name;
# bookpanda/microvm-networking's benchmark notes prefix a remote command's lines "[OUTPUT] ".
_HARNESS = re.compile(r"(?m)^[ \t]*\[(?:STDOUT|STDERR|OUTPUT|stdout|stderr)\][ \t]?")
# Double-byte code pages of localised Windows (Chinese, Japanese, Korean) are tried first and
# kept only when they yield runs of CJK characters; then the single-byte OEM (cp850, what
# cmd.exe writes when redirected) and ANSI (cp1252) pages compete on how many letters they make.
_CJK_PAGES = ("cp936", "cp932", "cp949", "cp950")
_LATIN_PAGES = ("cp850", "cp1252")
# Russian Windows: cmd.exe writes the OEM page cp866, other programs the ANSI page cp1251.
_CYRILLIC_PAGES = ("cp866", "cp1251")
_WORD = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    newline: str  # "LF", "CRLF", "CR", "mixed" or "none"
    ansi_stripped: bool
    prefixes_stripped: bool
    entities_read: bool = False  # '&lt;' and its kind read as '<' (_ENTITY)
    mojibake_fixed: bool = False  # 'Ã¼' read as the 'ü' it was (_mojibake_page)
    html_read: bool = False  # an HTML page's tags taken off, its entities read (_HTML)
    markdown_unescaped: bool = False  # Markdown's '\_' read as '_' (_MD_ESCAPE)


def _utf16_without_bom(data: bytes) -> str | None:
    sample = data[:4000]
    if len(sample) < 4:
        return None
    even, odd = sample[0::2], sample[1::2]
    if odd.count(0) > 0.4 * len(odd) and even.count(0) < 0.05 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.4 * len(even) and odd.count(0) < 0.05 * len(odd):
        return "utf-16-be"
    return None


def _is_cjk(c: str) -> bool:
    return (
        "\u3040" <= c <= "\u30ff"
        or "\u4e00" <= c <= "\u9fff"
        or "\uac00" <= c <= "\ud7af"
        or "\uff00" <= c <= "\uffef"
        or "\u3000" <= c <= "\u303f"
    )


def _cjk_plausible(text: str) -> bool:
    """Real CJK text has words: most CJK characters stand next to another one.  A Latin
    accented letter mis-decoded as a double-byte pair gives a lone ideograph instead."""
    non_ascii = [i for i, c in enumerate(text) if ord(c) > 127]
    if not non_ascii:
        return False
    cjk = [i for i in non_ascii if _is_cjk(text[i])]
    if len(cjk) < 0.9 * len(non_ascii):
        return False
    paired = sum(
        1
        for i in cjk
        if (i > 0 and _is_cjk(text[i - 1])) or (i + 1 < len(text) and _is_cjk(text[i + 1]))
    )
    return paired >= 0.6 * len(cjk)


def _kana_rich(text: str) -> bool:
    cjk = [c for c in text if _is_cjk(c)]
    kana = sum(1 for c in cjk if "\u3040" <= c <= "\u30ff")
    return bool(cjk) and kana >= 0.2 * len(cjk)


def _gb2312_share(text: str) -> float:
    """The share of CJK characters of ``text`` that GB2312 holds.  Simplified Chinese text is
    nearly all GB2312; Traditional Chinese (Big5, cp950) bytes decode as GBK too, but into
    GBK's extension (a Big5 trail byte below 0xA1 is never a GB2312 character)."""
    cjk = [c for c in text if "\u4e00" <= c <= "\u9fff"]
    if not cjk:
        return 1.0
    held = 0
    for c in cjk:
        try:
            c.encode("gb2312")
        except UnicodeEncodeError:
            continue
        held += 1
    return held / len(cjk)


def _cyrillic_words(text: str) -> int:
    """How well ``text`` reads as Russian (0: not at all): the number of its Cyrillic words,
    when nearly all its non-ASCII characters are Cyrillic letters and nearly all its words
    with one are Cyrillic through and through, in one case or capitalised ("Ответ",
    "получено").  A Latin page's accents decoded as Cyrillic sit inside Latin words
    ("ZeitБberschreitung"); cp1251 read as cp866 turns capitals into box drawing and
    lower-case letters into mid-word capitals ("╬ЄтхЄ")."""
    cyrillic = sum(1 for c in text if "\u0400" <= c <= "\u04ff")
    if cyrillic < 0.9 * sum(1 for c in text if ord(c) > 127):
        return 0
    words = [w for w in _WORD.findall(text) if any("\u0400" <= c <= "\u04ff" for c in w)]
    good = sum(
        1
        for w in words
        if all("\u0400" <= c <= "\u04ff" for c in w) and (w.islower() or w.isupper() or w.istitle())
    )
    return good if len(words) >= 3 and good >= 0.9 * len(words) else 0


def _latin_score(text: str) -> int:
    return sum(1 if c.isalpha() else -1 for c in text if ord(c) > 127)


# Byte-order marks, longest first: the UTF-32 LE mark starts with the UTF-16 LE one.
_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig", "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32", "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32", "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16", "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16", "utf-16-be"),
)


def _unicode(data: bytes) -> tuple[str, str] | None:
    """(python codec, label) when ``data`` is UTF-8, UTF-16 or UTF-32, else None."""
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            return codec, label
    guess = _utf16_without_bom(data)
    if guess:
        return guess, guess
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return "utf-8", "utf-8"


def _cjk_page(data: bytes) -> str | None:
    """The double-byte code page ``data`` reads as real CJK text in, or None."""
    plausible = []
    for cp in _CJK_PAGES:
        try:
            text = data.decode(cp)
        except UnicodeDecodeError:
            continue
        if _cjk_plausible(text):
            plausible.append((cp, text))
    # Shift-JIS (cp932) bytes mostly decode as GBK (cp936) too, into rare ideographs; real
    # Japanese is full of kana (Japanese ping.exe: "からの応答"), which GBK text never gives.
    for cp, text in plausible:
        if cp == "cp932" and _kana_rich(text):
            return cp
    if not plausible:
        return None
    cp, text = plausible[0]
    big5 = dict(plausible).get("cp950")
    if cp == "cp936" and big5 is not None and _gb2312_share(text) < 0.9:
        return "cp950"
    return cp


def _detect(data: bytes) -> tuple[str, str]:
    """Return (python codec, label) for ``data``."""
    found = _unicode(data)
    if found:
        return found
    cp = _cjk_page(data)
    if cp:
        return cp, cp
    russian = {cp: _cyrillic_words(data.decode(cp, errors="replace")) for cp in _CYRILLIC_PAGES}
    if any(russian.values()):
        cp = max(_CYRILLIC_PAGES, key=lambda cp: russian[cp])
        return cp, cp
    scores = {cp: _latin_score(data.decode(cp, errors="replace")) for cp in _LATIN_PAGES}
    best = max(_LATIN_PAGES, key=lambda cp: scores[cp])  # ties go to cp850 (listed first)
    return best, best


def _newline_style(text: str) -> str:
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    kinds = [k for k, n in (("CRLF", crlf), ("CR", cr), ("LF", lf)) if n]
    if not kinds:
        return "none"
    return kinds[0] if len(kinds) == 1 else "mixed"


def clean_text(text: str, encoding: str = "str") -> Decoded:
    """Normalise line ends, read Markdown's escapes outside code, strip ANSI escapes and
    harness prefixes from decoded text, repair mojibake, read an HTML page's text, take out
    characters of no width, make a copied page's no-break spaces and escaped characters
    plain; ``encoding``: what the text was decoded with.  Each step looks for what it
    repairs first: plain text passes them all unchanged."""
    newline = "none"
    if "\r" in text:
        newline = _newline_style(text)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    elif "\n" in text:
        newline = "LF"
    escaped = "\\" in text and _MD_ESCAPE.search(text) is not None
    if escaped:
        text, escaped = _unescape_markdown(text)
    ansi = "\x1b" in text
    if ansi:
        text = _ANSI.sub("", text)
    prefixed = "[STD" in text or "[std" in text or "[OUTPUT]" in text
    if prefixed:
        new = _HARNESS.sub("", text)
        prefixed = new != text
        text = new
    page = None if text.isascii() else _mojibake_page(text)
    if page is not None:  # before the BOM: a mojibake BOM is 'ï»¿'
        text = _unmojibake(text, page)
    markup = "<" in text and _HTML.search(text) is not None
    if markup:
        text = _from_html(text)
    if "\ufeff" in text or "\u200b" in text or "\u2060" in text:
        text = _ZERO_WIDTH.sub("", text)
    if "\xa0" in text:
        text = _spaces(text)
    entities = "&" in text and "<" not in text and _ENTITY.search(text) is not None
    if entities:
        text = _ENTITY.sub(lambda m: html.unescape(m[0]), text)
    return Decoded(
        text, encoding, newline, ansi, prefixed, entities, page is not None, markup, escaped
    )


# UTF-8 read as another code page and saved again (PowerShell 5.1's Get-Content without
# -Encoding reads it as Windows-1252 or, on a Russian Windows, 1251; a console's cp437 or
# cp850; an editor's or a mail client's wrong guess): 'Zeit\u00c3\u00bcberschreitung' for
# 'Zeitüberschreitung', '46.2\u00c2\u00b5s' for irtt's '46.2µs', '\u00ef\u00bb\u00bf' for a BOM.
# Such a file is damaged all through, and the damage undoes itself: its lines written back
# in that page are UTF-8 again.  A real text's are not (a legacy page's 'ü' is one byte no
# UTF-8 character starts and ends with; a real 'é»' is no sequence), so the page is the one
# in which half of the non-ASCII lines of the first 64 KiB come back as other text, and every
# line that comes back in it is repaired.  ftfy's codecs write back what Windows read in
# place of a page's unassigned bytes.
_PAGES = ("sloppy-windows-1252", "latin-1", "sloppy-windows-1251", "cp437", "cp850")
_SAMPLE = 64 * 1024


def _back(line: str, page: str) -> str | None:
    """``line`` written back in ``page`` and read as UTF-8, or None where it is not."""
    try:
        return line.encode(page).decode("utf-8")
    except UnicodeError:
        return None


def _mojibake_page(text: str) -> str | None:
    """The code page ``text`` (not ASCII) was read in, as :data:`_PAGES` says; else None."""
    import ftfy.bad_codecs  # noqa: F401  (registers the sloppy-windows-* codecs)

    sample = text[:_SAMPLE]
    lines = sample.split("\n")[:-1] if len(text) > _SAMPLE else sample.split("\n")
    odd = [x for x in lines if not x.isascii()]
    for page in _PAGES if odd else ():
        back = sum(_back(x, page) not in (None, x) for x in odd)
        if 2 * back >= len(odd):
            return page
    return None


def _unmojibake(text: str, page: str) -> str:
    """``text`` with every line that comes back from ``page`` as UTF-8 repaired."""
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if not line.isascii() and (new := _back(line, page)) is not None:
            lines[k] = new
    return "\n".join(lines)


# Markdown written by a converter or an editor's export (pandoc from a Word report, Notion,
# Typora) escapes the punctuation Markdown gives a meaning to in text that is not code:
# 'icmp\_seq=1', '\[  5\]', '\*\*\*'.  No tool prints a backslash before '_', '*', '[' or ']';
# where one does, every CommonMark escape (a backslash before ASCII punctuation) outside a
# fenced block is read as the character, line for line.
_MD_ESCAPE = re.compile(r"\\[_*\[\]]")
_MD_ANY = re.compile(r"\\([!-/:-@\[-`{-~])")
_MD_FENCE = re.compile(r"^\s{0,3}(```|~~~)")


def _unescape_markdown(text: str) -> tuple[str, bool]:
    """``text`` with Markdown's escapes outside fenced blocks read, and whether one was."""
    lines = text.split("\n")
    fenced = done = False
    for k, line in enumerate(lines):
        if _MD_FENCE.match(line):
            fenced = not fenced
        elif not fenced and "\\" in line:
            new = _MD_ANY.sub(r"\1", line)
            done = done or new != line
            lines[k] = new
    return "\n".join(lines), done


# An HTML page saved from the browser (a blog post, Jenkins' console page) or Markdown holding
# HTML (a README's '<pre>' block): its outputs stand in '<pre>' and '<code>' elements, escaped
# ('time&lt;1ms').  What marks HTML: a doctype, or one of the elements a page shows text in.
# HTML's own tags are taken off each line (not a tool's '<MAX>', which a page escapes), and
# every entity is read (html.unescape: '&nbsp;' too); no line is added or removed.
_HTML = re.compile(r"<(?:!doctype\s+html|html|body|pre|code|br)\b", re.I)
_TAGS = (
    "a|b|i|u|s|em|strong|small|big|sub|sup|pre|code|kbd|samp|tt|var|br|wbr|hr|p|div|span|font|"
    "html|head|body|title|meta|link|base|script|style|noscript|img|table|thead|tbody|tfoot|tr|"
    "td|th|caption|col|colgroup|ul|ol|li|dl|dt|dd|h[1-6]|blockquote|q|cite|abbr|mark|del|ins|"
    "section|article|header|footer|main|nav|aside|figure|figcaption|details|summary|label|"
    "button|form|input|select|option|textarea|svg|path|time|iframe"
)
_TAG = re.compile(rf"<!--.*?-->|<!doctype[^<>\n]*>|</?(?:{_TAGS})\b[^<>\n]*>", re.I)


def _from_html(text: str) -> str:
    """``text`` with HTML's tags taken off and its entities read, line for line."""
    return html.unescape(_TAG.sub("", text))


# A page that shows its text escaped (a blog's code block escaped twice, an HTML or XML
# export read as text): '&lt;' for '<' (Windows ping's 'time&lt;1ms', sockperf's
# '&lt;MAX&gt;'), '&gt;', '&amp;', '&quot;' (every key of a JSON document).  No tool prints
# one; read as the character, in a text with no '<' of its own: a markup document (ntttcp's
# XML) keeps its entities for its parser.
_ENTITY = re.compile(r"&(?:lt|gt|amp|quot|apos|#39|#x27);")


# Characters of no width: a byte-order mark, where files that each begin with one were put
# together (PowerShell 5.1's 'Out-File -Encoding utf8', then 'cat a b'); a zero-width space
# or word joiner a chat client or wiki puts into copied text.  Taken out wherever they stand.
_ZERO_WIDTH = re.compile("[\ufeff\u200b\u2060]")


# A web page's text copied from the browser: HTML's &nbsp; turns runs of spaces into no-break
# spaces (U+00A0) beside plain ones, or every space into one.  A no-break space between two
# words of a line that has plain spaces too is the tool's own (iputils' French 'temps=0.024
# ms', Czech 'z 10.77.40.2') and stays.
_NBSP_RUN = re.compile(r"(?<=[ \t\xa0])\xa0|\xa0(?=[ \t\xa0])|^\xa0", re.M)


def _spaces(text: str) -> str:
    """``text`` with the no-break spaces a copied web page put for spaces made plain."""
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if "\xa0" in line and " " not in line:  # every space of the line a no-break one
            lines[k] = line.replace("\xa0", " ")
    return _NBSP_RUN.sub(" ", "\n".join(lines))


def decode(data: bytes) -> Decoded:
    """Decode raw bytes of a log into clean text (see module docstring)."""
    if not isinstance(data, bytes):  # a mapped file, memoryview or bytearray
        data = bytes(data)
    codec, label = _detect(data)
    return clean_text(data.decode(codec, errors="replace"), label)
