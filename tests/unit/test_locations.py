"""How location values compare: value_key and search_key."""

from __future__ import annotations

import random
import string
import unicodedata

import pytest

from chalicelib.domain.locations import search_key, value_key


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("  Main   ST ", "main st"),
        ("Wrocław", "wroclaw"),
        ("São Paulo", "sao paulo"),
        ("Straße", "strasse"),
        ("\uff21\uff22\uff23 \uff11", "abc 1"),  # full width
        ("Ærøskøbing", "æroskobing"),
        ("東京都", "東京都"),
    ],
)
def test_search_keys_ignore_case_accents_width_and_spacing(text: str, key: str) -> None:
    assert search_key(text) == key


def _by_the_general_path(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", value_key(text))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def test_the_ascii_shortcut_agrees_with_the_general_path() -> None:
    rng = random.Random(7)
    for _ in range(20_000):
        text = "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 16)))
        assert search_key(text) == _by_the_general_path(text), repr(text)
