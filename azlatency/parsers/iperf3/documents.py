"""Decoding what iperf3 writes as JSON, valid or not.

``-J`` writes pretty-printed documents (``-s -J`` one per test, back to back); ``--json-stream``
(3.17+) one ``{"event": ..., "data": ...}`` per line.  Real files are not always valid JSON;
each repair is reported so the run can warn:

* duplicate keys (3.6 repeats ``sock_bufsize``/``sndbuf_actual``/``rcvbuf_actual`` once per
  stream; the 3.12 server repeats ``target_bitrate``): kept (first value) without error;
* ``nan``/``-nan``/``inf`` written by C's printf, and ``5.924e 06`` (the ``+`` of an exponent
  eaten by URL decoding on the way to a log store): read as NaN / as ``5.924e+06``;
* a document cut off (Ctrl-C while writing, a truncated upload): decoded key by key and item
  by item (``json.JSONDecoder.raw_decode``), keeping every complete interval.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from .._lines import json_without_strays, json_wrapped

_BAD_TOKENS = re.compile(
    r'"(?:[^"\\]|\\.)*"|(?<![\w.])(?P<nan>-?nan)\b|(?<![\w.])(?P<inf>-?inf)(?:inity)?\b'
    r"|(?P<exp>\d[eE]) (?P<digit>\d)"
)
_WS = re.compile(r"\s*")


@dataclass
class Doc:
    """One decoded document (or reassembled JSON stream) and where it sat."""

    data: dict
    first: int  # 1-based lines within the decoded text
    last: int
    complete: bool
    duplicates: list[str] = field(default_factory=list)
    # (1-based line within the decoded text, message) of a decode error that is no cut: the
    # document goes on after it (a missing comma, an edited value).
    broken: tuple[int, str] | None = None


class _Decoder:
    """``json.JSONDecoder`` whose objects keep the first of repeated keys and note them."""

    def __init__(self) -> None:
        self.duplicates: list[str] = []
        self.json = json.JSONDecoder(object_pairs_hook=self._pairs)

    def _pairs(self, pairs: list[tuple[str, Any]]) -> dict:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            obj = {}
            for key, value in pairs:
                if key in obj:
                    self.duplicates.append(key)
                else:
                    obj[key] = value
        return obj

    def since(self, mark: int) -> list[str]:
        return sorted(set(self.duplicates[mark:]))


def _sanitize(text: str) -> tuple[str, list[str]]:
    """Replace C's ``nan``/``inf`` and a ``e 06`` exponent outside strings; same line count."""
    fixed: list[str] = []

    def repl(m: re.Match[str]) -> str:
        if m["nan"]:
            fixed.append("nan")
            return "NaN"
        if m["inf"]:
            fixed.append("inf")
            return "-Infinity" if m["inf"].startswith("-") else "Infinity"
        if m["exp"]:
            fixed.append("exponent")
            return f"{m['exp']}+{m['digit']}"
        return m.group()

    out = _BAD_TOKENS.sub(repl, text)
    return out, sorted(set(fixed))


def _skip(s: str, i: int) -> int:
    return _WS.match(s, i).end()


def _tolerant_object(dec: _Decoder, s: str, i: int) -> tuple[dict, bool]:
    """Decode the object at ``s[i] == '{'`` key by key; a value that does not decode ends it.
    Returns the keys read and whether the object was complete.  A cut ``intervals`` list keeps
    its complete items."""
    obj: dict = {}
    i = _skip(s, i + 1)
    while i < len(s):
        if s[i] == "}":
            return obj, True
        if s[i] != '"':
            return obj, False
        try:
            key, i = json.decoder.scanstring(s, i + 1)
        except json.JSONDecodeError:
            return obj, False
        i = _skip(s, i)
        if i >= len(s) or s[i] != ":":
            return obj, False
        i = _skip(s, i + 1)
        try:
            value, i = dec.json.raw_decode(s, i)
        except json.JSONDecodeError:
            if i < len(s) and s[i] == "[":
                obj.setdefault(key, _tolerant_list(dec, s, i))
            elif i < len(s) and s[i] == "{" and key == "start":
                obj.setdefault(key, _tolerant_object(dec, s, i)[0])
            return obj, False
        if key in obj:
            dec.duplicates.append(key)
        else:
            obj[key] = value
        i = _skip(s, i)
        if i < len(s) and s[i] == ",":
            i = _skip(s, i + 1)
    return obj, False


def _tolerant_list(dec: _Decoder, s: str, i: int) -> list[Any]:
    items: list[Any] = []
    i = _skip(s, i + 1)
    while i < len(s) and s[i] != "]":
        try:
            value, i = dec.json.raw_decode(s, i)
        except json.JSONDecodeError:
            break
        items.append(value)
        i = _skip(s, i)
        if i < len(s) and s[i] == ",":
            i = _skip(s, i + 1)
    return items


def _decode_wrapped(dec: _Decoder, text: str, i: int, notes: list[str]):
    """``raw_decode`` at ``text[i]``; a document whose only fault is a line break inside a
    string (the copy wrapped a long 'system_info') is read, and the line named."""
    try:
        return dec.json.raw_decode(text, i)
    except json.JSONDecodeError as exc:
        mark = len(dec.duplicates)
        found = json_wrapped(text, i, exc, dec.json)
        if found is None:
            del dec.duplicates[mark:]
            raise
        notes.append(found[2])
        return found[:2]


def _raw(dec: _Decoder, mark: int):
    """``raw_decode`` that forgets the duplicate keys of a failed attempt."""

    def decode(text: str, i: int):
        try:
            return dec.json.raw_decode(text, i)
        except json.JSONDecodeError:
            del dec.duplicates[mark:]
            raise

    return decode


def decode_documents(text: str) -> tuple[list[Doc], list[str], str, list[tuple[int, str]]]:
    """Every top-level JSON object in ``text``, notes about repairs, the text found between
    and after the objects, and the stray lines taken out of objects (1-based, text)."""
    dec = _Decoder()
    stray_lines: list[tuple[int, str]] = []
    docs: list[Doc] = []
    notes: list[str] = []
    outside: list[str] = []
    fixed_text = None
    i = _skip(text, 0)
    while i < len(text):
        if text.startswith("^C{", i):
            i += 2  # the terminal's echo of Ctrl+C, on the document's first line
            at = text.count("\n", 0, i) + 1
            notes.append(f"line {at}: stopped with Ctrl+C ('^C' before the document)")
            continue
        if text[i] != "{":
            nxt = text.find("\n{", i)
            stop = len(text) if nxt < 0 else nxt + 1
            outside.append(text[i:stop])
            i = _skip(text, stop)
            continue
        mark = len(dec.duplicates)
        broken = None
        try:
            doc, end = dec.json.raw_decode(text, i)
            complete = True
        except json.JSONDecodeError:
            if fixed_text is None:
                # Only from this document on: earlier ones decoded, and positions must hold.
                tail, fixed = _sanitize(text[i:])
                fixed_text = text = text[:i] + tail
                if fixed:
                    notes.append("repaired: " + ", ".join(fixed) + " (not valid JSON as written)")
            del dec.duplicates[mark:]
            try:
                doc, end = _decode_wrapped(dec, text, i, notes)
                complete = True
            except json.JSONDecodeError as exc:
                del dec.duplicates[mark:]
                failure = exc
                text, doc, end, strays = json_without_strays(
                    _raw(dec, mark), text, i, exc, cut_ok=True
                )
                complete = doc is not None
                stray_lines.extend(strays)
                failure = None if strays else failure  # a cut document, strays taken out
            if doc is None:
                doc, complete = _tolerant_object(dec, text, i)
                nxt = text.find("\n{", i + 1)
                end = len(text) if nxt < 0 else nxt + 1
                nl = -1 if failure is None else text.find("\n", failure.pos)
                if failure is not None and nl >= 0 and text[nl:end].strip():
                    # more lines of the document after the error's: no cut, broken
                    broken = (failure.lineno, failure.msg)
        first = text.count("\n", 0, i) + 1
        last = text.count("\n", 0, max(i, end - 1)) + 1
        docs.append(Doc(doc, first, last, complete, dec.since(mark), broken))
        i = _skip(text, end)
    return docs, notes, "".join(outside), stray_lines


# ---------------------------------------------------------------------------------------------
# --json-stream


def stream_documents(lines: list[str], offset: int) -> tuple[list[Doc], list[str]]:
    """Reassemble ``--json-stream`` events into documents (one per ``start`` event)."""
    dec = _Decoder()
    docs: list[Doc] = []
    notes: list[str] = []
    cur: dict | None = None
    first = last = offset + 1
    mark = 0
    for i, line in enumerate(lines):
        text = line.strip()
        if not text:
            continue
        line_no = offset + i + 1
        try:
            event = dec.json.decode(text)
        except json.JSONDecodeError:
            try:
                event = dec.json.decode(_sanitize(text)[0])
            except json.JSONDecodeError:
                what = "a complete JSON event (cut short?)" if text[:1] == "{" else "JSON"
                notes.append(f"line {line_no}: not {what}: not read: {text[:80]!r}")
                continue
        name = event.get("event") if isinstance(event, dict) else None
        data = event.get("data") if isinstance(event, dict) else None
        if name == "start" or cur is None:
            if cur is not None:
                docs.append(Doc(cur, first, last, "end" in cur, dec.since(mark)))
                mark = len(dec.duplicates)
            cur, first = {"intervals": []}, line_no
        last = line_no
        if name == "interval":
            cur["intervals"].append(data)
        elif isinstance(name, str):
            cur[name] = data
        else:
            notes.append(f"line {line_no}: JSON line without an 'event': not read")
    if cur is not None:
        docs.append(Doc(cur, first, last, "end" in cur, dec.since(mark)))
    return docs, notes
