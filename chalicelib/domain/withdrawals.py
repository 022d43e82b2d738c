"""Withdrawn addresses: a resident's (or an owner's) address that an operator has taken out of the
pool, never to be served again, by any route, from any snapshot, after any later sync.

A withdrawal names what identifies the address, not its id (ids follow the source's record and
text, and another source or a re-spelling may publish it anew): its street (without diacritics),
number and unit (without spaces or case), and its postcode (its city where it has none), in its
country, the equivalences the dedupe merges by. `building` withdraws every address of the number,
street and postcode, whatever the unit. Each is kept as a short digest of that key, so the list the
request path reads stays small."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.locations import search_key, value_key


class WithdrawalScope(StrEnum):
    ADDRESS = "address"  # the address: its street, number, unit and postcode
    BUILDING = "building"  # every address of its number, street and postcode


@dataclass(frozen=True)
class Withdrawal:
    key: str  # the digest of what identifies the address (or building): its id in the API
    country: str
    scope: WithdrawalScope
    reason: str
    withdrawn_at: datetime
    actor: str  # the administrator's token id
    address_id: str  # the address it was made from
    text: str  # that address as it was served, for the operator's list


def withdrawal_key(address: PublishedAddress, scope: WithdrawalScope) -> str:
    c = address.components
    place = c.postcode or c.city or ""
    parts = [address.country, search_key(c.street or ""), _compact(c.house_number), _compact(place)]
    if scope is WithdrawalScope.ADDRESS:
        parts.append(_compact(c.unit))
    digest = hashlib.sha256("\x1f".join([scope.value, *parts]).encode()).digest()
    return f"{address.country.lower()}-{scope.value[0]}-{base64.b32encode(digest[:10]).decode().lower()}"


def country_of(key: str) -> str | None:
    """The country a withdrawal's key names (its first part, as withdrawal_key writes it)."""
    country = key.split("-", 1)[0]
    return country.upper() if len(country) == 2 and country.isalpha() else None


def _compact(value: str | None) -> str:
    return "".join(value_key(value or "").split())


@dataclass(frozen=True)
class Withdrawn:
    """The withdrawn keys of one country, as a request reads them: which addresses are not served."""

    keys: frozenset[str] = frozenset()

    @classmethod
    def of(cls, keys: Iterable[str]) -> Withdrawn:
        return cls(frozenset(keys))

    def holds(self, address: PublishedAddress) -> bool:
        if not self.keys:
            return False
        return any(withdrawal_key(address, scope) in self.keys for scope in WithdrawalScope)

    def __len__(self) -> int:
        return len(self.keys)


NOTHING_WITHDRAWN = Withdrawn()
