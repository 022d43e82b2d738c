"""Paging cursors: signed, bound to their request, strict about their text."""

from __future__ import annotations

import pytest

from chalicelib.errors import InvalidRequest
from chalicelib.services.catalog.cursors import CursorSigner, Position, binding

SIGNER = CursorSigner(b"k" * 32)
BOUND = binding("search", {"type": "city", "q": None, "limit": 20})


def test_a_cursor_reads_back_its_position() -> None:
    cursor = SIGNER.issue(BOUND, Position("snap-1", 40))
    assert SIGNER.read(cursor, BOUND) == Position("snap-1", 40)


def test_every_single_character_change_is_refused() -> None:
    cursor = SIGNER.issue(BOUND, Position("snap-1", 40))
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."
    for i, original in enumerate(cursor):
        for replacement in alphabet:
            if replacement != original:
                with pytest.raises(InvalidRequest):
                    SIGNER.read(cursor[:i] + replacement + cursor[i + 1 :], BOUND)


@pytest.mark.parametrize("text", ["", ".", "abc", "abc.", ".abc", "a b.c", "é.é", "YQ.YQ==", "YQ.YQ.YQ"])
def test_malformed_cursors_are_refused(text: str) -> None:
    with pytest.raises(InvalidRequest):
        SIGNER.read(text, BOUND)


def test_a_cursor_is_bound_to_its_request_and_its_key() -> None:
    cursor = SIGNER.issue(BOUND, Position("snap-1", 40))
    other = binding("search", {"type": "city", "q": "a", "limit": 20})
    with pytest.raises(InvalidRequest, match="other parameters"):
        SIGNER.read(cursor, other)
    with pytest.raises(InvalidRequest, match="not valid"):
        CursorSigner(b"j" * 32).read(cursor, BOUND)


def test_binding_ignores_parameter_order_but_not_values() -> None:
    assert binding("search", {"a": 1, "b": 2}) == binding("search", {"b": 2, "a": 1})
    assert binding("search", {"a": 1}) != binding("hierarchy", {"a": 1})
    assert binding("search", {"a": 1}) != binding("search", {"a": 2})


def test_short_secrets_are_refused() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        CursorSigner(b"short")
