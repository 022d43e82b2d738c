"""Withdrawing an address, or every address of its building, from the pool, and what the request
path reads of the withdrawals: each country's withdrawn keys, cached per process for the seconds
the active-snapshot pointers are (a withdrawal holds everywhere within them, and at once in the
process that made it)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from chalicelib.clock import Clock
from chalicelib.domain.audit import AuditAction, AuditEntry
from chalicelib.domain.withdrawals import (
    NOTHING_WITHDRAWN,
    Withdrawal,
    WithdrawalScope,
    Withdrawn,
    country_of,
    withdrawal_key,
)
from chalicelib.errors import WithdrawalNotFound
from chalicelib.services.generation.service import GenerationPorts, published_address


class WithdrawnKeysReader(Protocol):
    def withdrawn_keys(self) -> dict[str, frozenset[str]]: ...


class WithdrawalStore(WithdrawnKeysReader, Protocol):
    def withdraw(self, withdrawal: Withdrawal) -> None: ...
    def reinstate(self, withdrawal: Withdrawal) -> None: ...
    def withdrawals(self, country: str) -> list[Withdrawal]: ...
    def withdrawal(self, country: str, key: str) -> Withdrawal | None: ...


class AuditLog(Protocol):
    def append(self, entry: AuditEntry) -> None: ...


class CachedWithdrawals:
    """Every country's withdrawn keys, read in one Query at most once per `ttl_seconds`."""

    def __init__(
        self, store: WithdrawnKeysReader, ttl_seconds: float, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self._store, self._ttl, self._monotonic = store, ttl_seconds, monotonic
        self._loaded_at: float | None = None
        self._keys: dict[str, Withdrawn] = {}

    def of(self, country: str) -> Withdrawn:
        now = self._monotonic()
        if self._loaded_at is None or now - self._loaded_at >= self._ttl:
            self._keys = {c: Withdrawn.of(keys) for c, keys in self._store.withdrawn_keys().items()}
            self._loaded_at = now
        return self._keys.get(country, NOTHING_WITHDRAWN)

    def forget(self) -> None:
        """Read again at the next request: this process withdrew one."""
        self._loaded_at = None


@dataclass(frozen=True)
class WithdrawalPorts:
    store: WithdrawalStore
    generation: GenerationPorts  # where the address to withdraw is looked up
    cache: CachedWithdrawals
    audit: AuditLog
    clock: Clock


def withdraw(
    ports: WithdrawalPorts, *, address_id: str, scope: WithdrawalScope, reason: str, actor: str
) -> Withdrawal:
    """Withdraw the address (or its building) the id names in its country's active snapshot: kept
    by what identifies it, so it stays withdrawn whatever ids later syncs give it. Audit-logged."""
    # Withdrawn or not: a building is withdrawn after one of its flats, a withdrawal made twice is one.
    found = published_address(address_id, ports.generation)
    address, now = found.address, ports.clock.now()
    withdrawal = Withdrawal(
        key=withdrawal_key(address, scope),
        country=address.country,
        scope=scope,
        reason=reason,
        withdrawn_at=now,
        actor=actor,
        address_id=address.id,
        text=address.formatted,
    )
    ports.store.withdraw(withdrawal)
    details = {"addressId": address.id, "scope": scope.value, "reason": reason}
    ports.audit.append(AuditEntry(now, actor, AuditAction.ADDRESS_WITHDRAWN, withdrawal.key, details))
    ports.cache.forget()
    return withdrawal


def reinstate(ports: WithdrawalPorts, *, key: str, actor: str) -> Withdrawal:
    """Undo a withdrawal (one made in error): served again within the cache's seconds, and by the
    next sync's snapshot. Audit-logged. WithdrawalNotFound when no withdrawal has the key."""
    country = country_of(key)
    withdrawal = ports.store.withdrawal(country, key) if country else None
    if withdrawal is None:
        raise WithdrawalNotFound(f"no withdrawal has the id {key}")
    ports.store.reinstate(withdrawal)
    now = ports.clock.now()
    details = {"addressId": withdrawal.address_id, "scope": withdrawal.scope.value}
    ports.audit.append(AuditEntry(now, actor, AuditAction.ADDRESS_REINSTATED, key, details))
    ports.cache.forget()
    return withdrawal


def withdrawals(ports: WithdrawalPorts, country: str | None) -> list[Withdrawal]:
    """A country's withdrawals, or every country's that has any, newest first."""
    countries = [country] if country else sorted(ports.store.withdrawn_keys())
    found = [w for c in countries for w in ports.store.withdrawals(c)]
    return sorted(found, key=lambda w: w.withdrawn_at, reverse=True)
