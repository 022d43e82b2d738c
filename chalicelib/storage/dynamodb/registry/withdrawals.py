"""Withdrawn addresses: each withdrawal's record, and per country the set of withdrawn keys the
request path reads (one Query, every country, a few bytes a withdrawal).

Keys:
  WITHDRAWALS#<CC> | <key>  a withdrawal: its scope, reason, time, actor and the address it came from
  WITHDRAWN        | <CC>   the country's withdrawn keys (a string set, added to atomically)"""

from __future__ import annotations

from datetime import datetime

from chalicelib.domain.codecs import dumps, loads
from chalicelib.domain.withdrawals import Withdrawal, WithdrawalScope
from chalicelib.storage.dynamodb._dynamo import storage_errors
from chalicelib.storage.dynamodb.registry._table import RegistryTable

_WITHDRAWN = "WITHDRAWN"


class WithdrawalRecords(RegistryTable):
    def withdraw(self, withdrawal: Withdrawal) -> None:
        """The record, then the key: a request never sees a key without its record's reason."""
        record = self._model(f"WITHDRAWALS#{withdrawal.country}", withdrawal.key, doc=dumps(_doc(withdrawal)))
        keys = self._model(_WITHDRAWN, withdrawal.country)
        with storage_errors(self.table_name):
            record.save()
            keys.update(actions=[self._model.keys.add({withdrawal.key}), self._model.doc.set("{}")])

    def reinstate(self, withdrawal: Withdrawal) -> None:
        """The key first, then the record: served again at the next read of the keys."""
        keys = self._model(_WITHDRAWN, withdrawal.country)
        with storage_errors(self.table_name):
            keys.update(actions=[self._model.keys.delete({withdrawal.key})])
            self._model(f"WITHDRAWALS#{withdrawal.country}", withdrawal.key).delete()

    def withdrawals(self, country: str) -> list[Withdrawal]:
        with storage_errors(self.table_name):
            items = list(self._model.query(f"WITHDRAWALS#{country}"))
        return sorted(
            (_withdrawal(i.sk, loads(i.doc)) for i in items), key=lambda w: w.withdrawn_at, reverse=True
        )

    def withdrawal(self, country: str, key: str) -> Withdrawal | None:
        with storage_errors(self.table_name):
            try:
                item = self._model.get(f"WITHDRAWALS#{country}", key)
            except self._model.DoesNotExist:
                return None
        return _withdrawal(item.sk, loads(item.doc))

    def withdrawn_keys(self) -> dict[str, frozenset[str]]:
        """Every country's withdrawn keys."""
        with storage_errors(self.table_name):
            return {item.sk: frozenset(item.keys or ()) for item in self._model.query(_WITHDRAWN)}


def _doc(w: Withdrawal) -> dict[str, str]:
    return {
        "country": w.country,
        "scope": w.scope.value,
        "reason": w.reason,
        "withdrawnAt": w.withdrawn_at.isoformat(),
        "actor": w.actor,
        "addressId": w.address_id,
        "text": w.text,
    }


def _withdrawal(key: str, doc: dict[str, str]) -> Withdrawal:
    return Withdrawal(
        key=key,
        country=doc["country"],
        scope=WithdrawalScope(doc["scope"]),
        reason=doc["reason"],
        withdrawn_at=datetime.fromisoformat(doc["withdrawnAt"]),
        actor=doc["actor"],
        address_id=doc["addressId"],
        text=doc["text"],
    )
