"""The tokens table: one item per API token, keyed by its public id. Holds hashes, never secrets."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from pynamodb.attributes import NumberAttribute, TTLAttribute, UnicodeAttribute, UTCDateTimeAttribute
from pynamodb.exceptions import TransactWriteError, UpdateError
from pynamodb.models import Model
from pynamodb.transactions import TransactWrite

from chalicelib.config import TableSettings
from chalicelib.domain.audit import AuditEntry
from chalicelib.domain.tokens import Scope, Token
from chalicelib.errors import ConfigurationError, TokenNotFound
from chalicelib.storage.dynamodb._dynamo import TableStore, is_condition_failure, storage_errors
from chalicelib.storage.dynamodb._wire import DynamoWire
from chalicelib.storage.dynamodb.audit import AuditStore

# Expired tokens stay listable for a while, then DynamoDB's TTL removes them.
_KEEP_AFTER_EXPIRY = timedelta(days=30)


class _TokenItem(Model):
    class Meta:
        table_name: str | None = None

    pk = UnicodeAttribute(hash_key=True)
    token_id = UnicodeAttribute()
    secret_hash = UnicodeAttribute()
    scope = UnicodeAttribute()
    rate_per_minute = NumberAttribute()
    label = UnicodeAttribute()
    created_at = UTCDateTimeAttribute()
    expires_at = UTCDateTimeAttribute()
    revoked_at = UTCDateTimeAttribute(null=True)
    last_used_at = UTCDateTimeAttribute(null=True)
    purge_at = TTLAttribute()  # the table's TTL attribute: DynamoDB deletes the item after it


def _pk(token_id: str) -> str:
    return f"TOKEN#{token_id}"


def _to_token(item: _TokenItem) -> Token:
    return Token(
        token_id=item.token_id,
        secret_hash=item.secret_hash,
        scope=Scope(item.scope),
        rate_per_minute=int(item.rate_per_minute),
        label=item.label,
        created_at=item.created_at,
        expires_at=item.expires_at,
        revoked_at=item.revoked_at,
        last_used_at=item.last_used_at,
    )


class TokenStore(TableStore[_TokenItem]):
    """Verbs on the tokens table."""

    def __init__(
        self, table: TableSettings, audit: AuditStore | None = None, wire: DynamoWire | None = None
    ) -> None:
        super().__init__(_TokenItem, table, wire)
        self._audit = audit

    def put_new(self, token: Token) -> None:
        """Store a new token; refuses to overwrite an existing id."""
        with storage_errors(self.table_name):
            self._item(token).save(condition=self._model.pk.does_not_exist())

    def put_new_audited(self, token: Token, entry: AuditEntry) -> None:
        """Store a new token and its audit entry in one transaction: both or neither."""
        with storage_errors(self.table_name), self._transaction() as tx:
            tx.save(self._item(token), condition=self._model.pk.does_not_exist())
            tx.save(self._audit_log().item(entry))

    def revoke_audited(self, token: Token, at: datetime, entry: AuditEntry) -> Token:
        """Revoke a token just read (keeping a first revocation time) and record it, in one
        transaction; TokenNotFound when it was deleted in between."""
        m = self._model
        with storage_errors(self.table_name):
            try:
                with self._transaction() as tx:
                    tx.update(
                        m(_pk(token.token_id)),
                        actions=[m.revoked_at.set(m.revoked_at | at)],
                        condition=m.pk.exists(),
                    )
                    tx.save(self._audit_log().item(entry))
            except TransactWriteError as exc:
                # Only the token's update has a condition (PynamoDB orders the items its own way).
                codes = {r.code for r in exc.cancellation_reasons if r is not None}
                if "ConditionalCheckFailed" in codes:
                    raise TokenNotFound(f"no token has the id {token.token_id!r}") from exc
                raise
        return replace(token, revoked_at=token.revoked_at or at)

    def _audit_log(self) -> AuditStore:
        if self._audit is None:
            raise ConfigurationError("this token store was built without the audit table")
        return self._audit

    def _transaction(self) -> TransactWrite:
        return TransactWrite(connection=self._model._get_connection().connection)

    def _item(self, token: Token) -> _TokenItem:
        return self._model(
            _pk(token.token_id),
            token_id=token.token_id,
            secret_hash=token.secret_hash,
            scope=token.scope.value,
            rate_per_minute=token.rate_per_minute,
            label=token.label,
            created_at=token.created_at,
            expires_at=token.expires_at,
            revoked_at=token.revoked_at,
            purge_at=token.expires_at + _KEEP_AFTER_EXPIRY,
        )

    def get(self, token_id: str) -> Token | None:
        """Read on the request path: through the wire, the item decoded by the model."""
        key = {"pk": {"S": _pk(token_id)}}
        with storage_errors(self.table_name):
            item = self._wire.call("GetItem", {"TableName": self.table_name, "Key": key}).get("Item")
        return _to_token(self._model.from_raw_data(item)) if item else None

    def list_all(self) -> list[Token]:
        """Every stored token. A scan: the table holds only tokens, and only administrators list."""
        with storage_errors(self.table_name):
            items = list(self._model.scan(self._model.pk.startswith("TOKEN#")))
        return sorted((_to_token(i) for i in items), key=lambda t: t.created_at)

    def record_use(self, token_id: str, at: datetime) -> None:
        """Note when the token was last used (called once per rate window, not per request)."""
        item = self._model(_pk(token_id))
        with storage_errors(self.table_name):
            try:
                item.update(actions=[self._model.last_used_at.set(at)], condition=self._model.pk.exists())
            except UpdateError as exc:
                if not is_condition_failure(exc):  # deleted meanwhile: nothing to note
                    raise

    def revoke(self, token_id: str, at: datetime) -> Token:
        """Mark a token revoked; revoking twice keeps the first time."""
        item = self._model(_pk(token_id))
        with storage_errors(self.table_name):
            try:
                item.update(
                    actions=[self._model.revoked_at.set(self._model.revoked_at | at)],
                    condition=self._model.pk.exists(),
                )
            except UpdateError as exc:
                if is_condition_failure(exc):
                    raise TokenNotFound(f"no token has the id {token_id!r}") from exc
                raise
        return _to_token(item)
