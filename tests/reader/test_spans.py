"""Where the outputs sit in a document (``reader.spans``): JSON documents that a tool writes
as a file of its own, pasted into a README's fence or a note."""

from __future__ import annotations

import pytest

import azlatency
from tests.conftest import FIXTURES

CASES = [
    "ntttcp/ntttcp--1.4.3-linux-s-j-sender.json",
    "ntttcp/ntttcp--1.4.0-linux-s-j-sender.json",
    "lagscope/lagscope--1.0.1-linux-n1000-P-freq-table.json",
]


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "default"])
@pytest.mark.parametrize("fence", [True, False], ids=["fence", "prose"])
@pytest.mark.parametrize("name", CASES)
def test_a_whole_file_json_document_in_a_note_is_read(name, fence, strict):
    """ntttcp's ``-j`` and lagscope's frequency table were read only as whole files: in a
    README's fence or between paragraphs, 'no known tool output found' (the HTML study's
    leftovers: 947 of 987 then, 971 now)."""
    text = (FIXTURES / name).read_text(encoding="utf-8").rstrip("\n")
    body = f"```json\n{text}\n```" if fence else text
    note = f"# ntttcp between two VMs\n\nThe result:\n\n{body}\n\nAs expected.\n"
    base, got = azlatency.read(text, strict=strict), azlatency.read(note, strict=strict)
    assert len(got.runs) == len(base.runs) == 1
    for frame in ("samples", "summaries"):
        a = getattr(base, frame).drop(columns="run_id")
        assert a.equals(getattr(got, frame).drop(columns="run_id")), frame
    first = 5 + fence  # the '{' line, the file's
    assert got.runs["line_start"].iloc[0] == first
    assert got.runs["line_end"].iloc[0] == first + len(text.split("\n")) - 1


def test_a_json_document_no_tool_claims_is_no_output():
    note = 'Settings:\n\n{\n  "zone": 1,\n  "vm_size": "D4s_v5"\n}\n'
    with pytest.raises(azlatency.errors.DetectionError):
        azlatency.read(note)
