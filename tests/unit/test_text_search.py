"""What q means: whole words in alphabetic scripts, substrings in CJK; and the posting lists."""

from __future__ import annotations

import pytest

from chalicelib.domain.ordering import Range
from chalicelib.domain.text_search import (
    MAX_CHUNKS,
    decode,
    encode,
    is_searchable,
    matches,
    parse,
    split,
    tokens,
)
from chalicelib.services.generation.text_draws import in_ranges


@pytest.mark.parametrize(
    ("q", "text", "found"),
    [
        ("minna st", "123 MINNA ST, San Francisco", True),
        ("MINNA", "Minna St", True),
        ("minna ave", "Minna St", False),  # every word must be there
        ("Asvellir", "Ásvellir 3, 221 Hafnarfjörður", True),  # accents folded
        ("Löwengrube", "Loewengrube 10", False),  # no transliteration: ö is o, not oe
        ("strasse", "Hauptstrasse 5", False),  # whole words, not parts of one
        ("千駄木5丁目", "東京都文京区千駄木５丁目3番1号", True),  # full-width digits are digits
        ("光路", "金門縣金城鎮莒光路144巷", True),  # CJK: a substring
        ("光金", "金門縣金城鎮莒光路144巷", False),  # both characters there, not together
        ("松江北２丁目", "島根県松江市松江北６丁目2番33号", False),  # the run whole, its digit included
        ("松江北２丁目", "島根県松江市松江北２丁目2番33号", True),
        ("5丁目", "千駄木15丁目", False),  # an edge digit is not part of a longer number
        ("丁目", "千駄木15丁目", True),
        ("莒光路144巷", "莒光路1449巷", False),
        ("a棟", "Ba棟101", False),
        ("광교중앙로49번길", "광교중앙로49번길 46", True),
        ("代々木", "代々木3丁目", True),  # 々 is Han: one run
        ("代々木", "佐々木町 代田", False),
        ("𠮷", "𠮷野家", True),  # CJK Extension B
        ("улица Покровка", "улица Покровка 17", True),
    ],
)
def test_matching(q: str, text: str, found: bool) -> None:
    assert matches(parse(q), text) is found


def test_a_query_s_tokens_are_among_every_match_s_tokens() -> None:
    """The rarest token's postings then hold every match."""
    for q, text in [
        ("minna st", "123 MINNA ST"),
        ("千駄木5丁目", "千駄木５丁目3番1号"),
        ("路", "莒光路"),
        ("5丁目3番", "文京区千駄木5丁目3番1号"),
        ("B棟12", "A号B棟12号"),
    ]:
        assert matches(parse(q), text)
        assert parse(q).tokens <= tokens(text)


def test_punctuation_alone_is_not_a_query() -> None:
    assert not is_searchable(" -,. ")
    assert is_searchable("路")


def test_posting_lists_round_trip_compactly() -> None:
    ordinals = [0, 3, 4, 130, 20_000, 9_000_000_000]
    assert decode(encode(ordinals)) == ordinals
    assert len(encode(list(range(1000, 1300)))) == 2 + 299  # the first in two bytes, then a byte each


def test_postings_within_the_selection_s_ranges() -> None:
    ordinals = [1, 5, 9, 12, 20, 31]
    assert in_ranges(ordinals, [Range(10, 21), Range(0, 6)]) == [1, 5, 12, 20]
    assert in_ranges(ordinals, [Range(21, 30)]) == []


def test_long_words_are_keyed_by_their_start_and_matched_whole() -> None:
    word = "a" * 150
    assert parse(word).tokens == {"a" * 100}
    assert parse(word).tokens <= tokens(f"{word} 1")
    assert not matches(parse("a" * 150), "a" * 120)


def test_a_token_in_every_address_of_a_huge_country_keeps_its_head_small() -> None:
    head, chunks = split(range(100_000), max_chunks=5)  # as 100 million with MAX_CHUNKS
    assert len(head.chunks) == len(chunks) == 5
    assert [c.count for c in head.chunks] == [20_000] * 5
    assert len(split(range(100_000))[0].chunks) == 25 < MAX_CHUNKS  # 4,000 a chunk below the cap
