from __future__ import annotations

from chalicelib.sources.variants import merge_variants
from tests.support.factories import make_raw


def _stream(language: str, ids: list[str]):  # type: ignore[no-untyped-def]
    return iter([make_raw(record_id=i, language=language, street=f"{language}-{i}") for i in ids])


def test_records_out_of_step_still_pair_up() -> None:
    merged = list(merge_variants(_stream("fr", ["1", "2", "3"]), [_stream("nl", ["2", "3", "1"])]))
    assert sorted(r.record_id for r in merged) == ["1", "2", "3"]
    assert all(r.names["nl"]["street"] == f"nl-{r.record_id}" for r in merged)


def test_records_without_a_partner_are_kept() -> None:
    merged = {r.record_id: r for r in merge_variants(_stream("fr", ["1", "2"]), [_stream("nl", ["2", "9"])])}
    assert set(merged) == {"1", "2", "9"}
    assert "nl" not in merged["1"].names
    assert merged["9"].street == "nl-9"
