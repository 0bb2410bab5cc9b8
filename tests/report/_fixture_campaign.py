"""A campaign folder made of real fixtures, imported with ``azlatency import`` as a user would."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from azlatency.cli import main
from azlatency.report import load_campaigns
from azlatency.schema import Tables

FX = Path(__file__).resolve().parents[1] / "fixtures"
# Two pings with their replies to two far ends (10.202.0.2, 10.77.40.2): a folder of each.
TWO_PINGS = (
    "ping/ping--iputils-20221126-linux-D-c5-timestamps.txt",
    "ping/ping--iputils-20250605-33-linux-LANG-de_DE-c5.txt",
)


# campaign.yaml's rule that files a fixture by zone pair: "1-3/irtt.txt" is 1→3.
BY_PATH = 'rules:\n  - path: "{src_zone}-{dst_zone}/*"\n'


def import_fixtures(
    tmp: Path,
    name: str,
    files: dict[str, str],
    yaml: str | None = None,
    *,
    texts: dict[str, str] | None = None,
) -> Tables:
    """Copy ``files`` (fixture path under tests/fixtures → path in the campaign) into
    ``tmp/raw/name`` with ``yaml`` as its campaign.yaml, and ``texts`` (path in the campaign
    → its text: a capture a test changed, saying how), import it, check every file was
    imported, and load the tables as a page does (``report.load_campaigns``)."""
    raw = tmp / "raw" / name
    for src, dst in files.items():
        (raw / dst).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FX / src, raw / dst)
    for dst, text in (texts or {}).items():
        (raw / dst).parent.mkdir(parents=True, exist_ok=True)
        (raw / dst).write_text(text, encoding="utf-8")
    if yaml is not None:
        (raw / "campaign.yaml").write_text(yaml)
    res = CliRunner().invoke(
        main,
        ["import", str(raw), "--out", str(tmp / "processed"), "--workers", "1", "--json"],
        catch_exceptions=False,
    )
    assert res.exit_code == 0, res.output
    status = {f["path"]: f["status"] for f in json.loads(res.output)["files"]}
    status.pop("campaign.yaml", None)
    assert set(status.values()) == {"imported"}, status
    assert len(status) == len(files) + len(texts or {}), status
    # as a page loads it: its statistics kept, as a report keeps them (a test asking several
    # questions computed them again for each)
    return load_campaigns(name, tmp)


def answer_texts(tables: Tables, question: str, **kw) -> list[str]:
    """The sentences of page 90's answer to ``question`` (``report.campaign_answer``'s claims
    of the answer section, in order)."""
    from azlatency import report as rep

    _, claims = rep.campaign_answer(tables, question, **kw)
    return claims.loc[claims["section"].eq("answer"), "text"].tolist()
