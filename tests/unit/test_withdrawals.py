"""A withdrawal is kept by what identifies the address, not by its id: another source's (or a
later sync's) publication of it, spelled as the dedupe would merge it, is withdrawn too."""

from __future__ import annotations

from chalicelib.domain.withdrawals import WithdrawalScope, Withdrawn, withdrawal_key
from tests.support.factories import make_address

_ADDRESS, _BUILDING = WithdrawalScope.ADDRESS, WithdrawalScope.BUILDING


def test_another_id_and_spelling_of_the_address_is_withdrawn_too() -> None:
    withdrawn = make_address(record_id="a", number="57a", unit="2", street="Ulica Księcia Witolda")
    kept = Withdrawn.of([withdrawal_key(withdrawn, _ADDRESS)])
    again = make_address(record_id="b", number="57 A", unit="2", street="Ulica Ksiecia Witolda")
    assert again.id != withdrawn.id
    assert kept.holds(withdrawn)
    assert kept.holds(again)


def test_an_address_withdraws_its_unit_and_a_building_every_unit() -> None:
    flat = make_address(number="7", unit="2")
    neighbour = make_address(number="7", unit="3")
    assert not Withdrawn.of([withdrawal_key(flat, _ADDRESS)]).holds(neighbour)
    assert Withdrawn.of([withdrawal_key(flat, _BUILDING)]).holds(neighbour)


def test_another_number_or_postcode_is_another_address() -> None:
    kept = Withdrawn.of([withdrawal_key(make_address(number="7"), _BUILDING)])
    assert not kept.holds(make_address(number="9"))
    assert not kept.holds(make_address(number="7", postcode="50-203"))
    assert not Withdrawn().holds(make_address())
