"""The reserved blocks as a tester's validator sees them: libphonenumber (phonenumbers, the metadata
libphonenumber-js carries) accepts every number of every block, of the kind the block says, and
writes it as the block does; the NANP table is libphonenumber's own."""

from __future__ import annotations

import json
import re

import phonenumbers
import pytest
from phonenumbers import PhoneNumberFormat, PhoneNumberType

from chalicelib.reference.phones import BLOCKS, NANP_AREA_CODES_FILE, RULES, Block, blocks
from tests.support.nanp import area_codes

TYPES = {
    "landline": {PhoneNumberType.FIXED_LINE},
    "mobile": {PhoneNumberType.MOBILE},
    "landline_or_mobile": {PhoneNumberType.FIXED_LINE_OR_MOBILE},
    "non_geographic": {PhoneNumberType.UAN},
}
COUNTRIES = sorted({*BLOCKS, "US", "CA"})


def _numbers(block: Block) -> list[tuple[str, str]]:
    """The block's first, a middle and its last number, in both formats."""
    width = block.international.count("#")
    filled = []
    for digit in sorted({"0", "5", "9"} if width else {""}):
        international, national = block.international, block.national
        for _ in range(width):
            international = international.replace("#", digit, 1)
            national = national.replace("#", digit, 1)
        filled.append((international, national))
    return filled


@pytest.mark.parametrize("country", COUNTRIES)
def test_every_reserved_number_is_valid_of_its_kind_and_formatted_as_libphonenumber_writes_it(
    country: str,
) -> None:
    assert blocks(country)
    for block in blocks(country):
        for international, national in _numbers(block):
            number = phonenumbers.parse(international)
            assert phonenumbers.is_valid_number_for_region(number, country), international
            assert phonenumbers.number_type(number) in TYPES[block.kind], international
            assert phonenumbers.format_number(number, PhoneNumberFormat.INTERNATIONAL) == international
            assert phonenumbers.format_number(number, PhoneNumberFormat.NATIONAL) == national


def test_every_country_with_blocks_cites_its_regulator() -> None:
    assert set(RULES) == set(COUNTRIES)
    assert all(rule.url.startswith("https://") for rule in RULES.values())


def test_the_nanp_table_is_libphonenumbers_and_covers_every_state_and_province() -> None:
    table = json.loads(NANP_AREA_CODES_FILE.read_text("utf-8"))
    assert table == area_codes()  # `python -m tests.support.nanp` rewrites it after an upgrade
    assert len([r for r in table if r.startswith("US-")]) == 51  # 50 states and DC
    assert len([r for r in table if r.startswith("CA-")]) == 13  # 10 provinces, 3 territories


@pytest.mark.parametrize(
    ("reserved", "why"),
    [
        ("+447700900123", "Ofcom's drama mobiles"),
        ("+441154960123", "Nottingham's drama block"),
        ("+441632960123", "Ofcom's fictional area code"),
        ("+33639981234", "ARCEP's mobile block"),
    ],
)
def test_reserved_numbers_libphonenumber_rejects_are_left_out(reserved: str, why: str) -> None:
    assert not phonenumbers.is_valid_number(phonenumbers.parse(reserved)), why
    served = [_pattern(block) for country in COUNTRIES for block in blocks(country)]
    assert not any(pattern.fullmatch(reserved) for pattern in served), why


def _pattern(block: Block) -> re.Pattern[str]:
    digits = "".join(ch for ch in block.international if ch.isdigit() or ch == "#")
    return re.compile(r"\+" + digits.replace("#", r"\d"))
