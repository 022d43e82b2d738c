"""moto answers a Query on a table's own key by sorting every item of the table, every partition,
before keeping the queried one (moto 5.2.5, `Table.query` over `Table.all_items`): a sync's few
dozen Queries against a pool of thousands took 20 s of test_sharded_sync. Installed for the test
session, a Query on the table's key reads only its partition, then runs moto's own code on it
(the same sort by range key, pages, filters and limits); a Query on an index is moto's unchanged.
tests/unit/test_moto_queries.py holds the two answers equal."""

from __future__ import annotations

import inspect
from typing import Any

from moto.dynamodb.models.table import Table

_moto_query = Table.query
_SIGNATURE = inspect.signature(_moto_query)


class _Partition:
    """The table as the query sees it: every attribute the table's, its items one partition's."""

    def __init__(self, table: Table, hash_key: Any) -> None:
        self._table = table
        self._hash_key = hash_key

    def __getattr__(self, name: str) -> Any:
        return getattr(self._table, name)

    def all_items(self) -> list[Any]:
        found = self._table.items.get(self._hash_key)
        if found is None:
            return []
        return list(found.values()) if self._table.range_key_attr else [found]


def _partition_query(self: Table, *args: Any, **kwargs: Any) -> Any:
    asked = _SIGNATURE.bind(self, *args, **kwargs).arguments
    if asked.get("index_name") or asked.get("hash_key") is None:
        return _moto_query(self, *args, **kwargs)
    return _moto_query(_Partition(self, asked["hash_key"]), *args, **kwargs)  # type: ignore[arg-type]


def install() -> None:
    Table.query = _partition_query  # type: ignore[method-assign]


def uninstall() -> None:
    Table.query = _moto_query  # type: ignore[method-assign]
