"""campaign.yaml: schema validation with errors that name the key and the line."""

from __future__ import annotations

import pytest

from azlatency.campaign.config import parse_campaign, template_regex
from azlatency.errors import CampaignError
from tests.conftest import EXAMPLES, RAW


def _error(text: str) -> str:
    with pytest.raises(CampaignError) as info:
        parse_campaign(text)
    return str(info.value)


@pytest.mark.parametrize("name", EXAMPLES)
def test_bundled_campaign_files_are_valid(name):
    cfg = parse_campaign((RAW / name / "campaign.yaml").read_text(encoding="utf-8"))
    assert cfg.name == name
    assert "README.md" in cfg.ignore


def test_zone_written_as_a_number_stays_a_string():
    cfg = parse_campaign("hosts:\n  vm1: {ip: 10.0.0.4, zone: 1}\n")
    assert cfg.hosts["vm1"].zone == "1"
    assert cfg.hosts["vm1"].ip == ["10.0.0.4"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an unknown key, on line 3
        (
            "defaults:\n  region: westeurope\n  vmsize: D4\n",
            "campaign.yaml:3: defaults.vmsize: Extra inputs are not permitted",
        ),
        # placement outside the vocabulary
        (
            "defaults:\n  placement: zone\n",
            "campaign.yaml:2: defaults.placement: unknown placement 'zone'",
        ),
        # a bad IP of a host, line 4
        (
            "hosts:\n  vm1:\n    zone: 1\n    ip: 10.0.1.999\n",
            "campaign.yaml:4: hosts.vm1.ip: '10.0.1.999' does not appear to be an IPv4",
        ),
        # a regex that does not compile, in the second rule
        (
            "rules:\n  - glob: '*'\n  - heading: 'AZ(?P<src_zone>\\d'\n",
            "campaign.yaml:3: rules.1.heading: bad regular expression",
        ),
        # a rule without a condition
        ("rules:\n  - set: {scenario: x}\n", "campaign.yaml:2: rules.0: a rule needs a condition"),
        # a {name} in set that no pattern captures
        (
            "rules:\n  - glob: '*'\n    set: {scenario: 'AZ{zone}'}\n",
            "campaign.yaml:2: rules.0: set: {zone} is not captured",
        ),
        # a boolean that is not one
        (
            "defaults:\n  accelerated_networking: maybe\n",
            "campaign.yaml:2: defaults.accelerated_networking: Input should be a valid boolean",
        ),
        # the same address names two hosts
        (
            "hosts:\n  a: {ip: 10.0.0.1}\n  b: {ip: 10.0.0.1}\n",
            "campaign.yaml:1: hosts: '10.0.0.1' names both 'a' and 'b'",
        ),
    ],
)
def test_errors_name_the_key_and_the_line(text, expected):
    assert expected in _error(text)


def test_duplicate_key_is_an_error_not_a_silent_override():
    assert _error("defaults:\n  region: a\n  region: b\n") == (
        "campaign.yaml:3: defaults.region: duplicate key (first on line 2)"
    )


def test_yaml_syntax_error_has_its_line():
    assert _error("hosts:\n  vm1: {ip: [10.0.0.1}\n").startswith("campaign.yaml:2: not valid YAML")


def test_all_errors_are_reported_at_once():
    message = _error("defaults:\n  placement: zone\nrules:\n  - set: {}\n")
    assert "campaign.yaml:2:" in message and "campaign.yaml:4:" in message


def test_empty_file_is_an_empty_campaign():
    assert parse_campaign("# nothing yet\n").hosts == {}


def test_path_template_matches_a_path_or_its_tail():
    rx = template_regex("{src_zone}-{dst_zone}/{tool}.log")
    m = rx.match("week2/1-3/sockperf.log")
    assert m and m.groupdict() == {"src_zone": "1", "dst_zone": "3"}
    assert rx.match("logs.zip/1-3/ping.log")  # archive entries match as if in a folder
    assert rx.match("1-3/sub/ping.log") is None  # {tool} does not cross a folder
    assert template_regex("az*/{scenario}.txt").match("az1/x.txt").group("scenario") == "x"


def test_path_template_rejects_a_repeated_placeholder():
    assert "placeholder '{a}' used twice" in _error("rules:\n  - path: '{a}/{a}.log'\n")
