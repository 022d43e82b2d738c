"""Withdrawn addresses, under /api/v1/admin/withdrawals (admin tokens only): the console's page for
a resident who asks to be taken out of the pool."""

from __future__ import annotations

from chalicelib.api.endpoint import Call, Operation, endpoint
from chalicelib.api.models import withdrawals as models
from chalicelib.domain.tokens import Scope
from chalicelib.domain.withdrawals import Withdrawal, WithdrawalScope
from chalicelib.services import withdrawals as service

WITHDRAWALS = "/api/v1/admin/withdrawals"


@endpoint(
    Operation(
        method="POST",
        path=WITHDRAWALS,
        name="withdrawAddress",
        tag="admin",
        summary="Withdraw an address, or every address of its building: never served again",
        description="From the next request (every API process within SNAPSHOT_CACHE_SECONDS, 5 s by "
        "default; this one at once) no route serves it: not generate, batch, export or MCP, not "
        "from a pinned snapshot; GET /addresses/{id} answers 410 ADDRESS_WITHDRAWN. Kept by what "
        "identifies the address (street, number, unit, postcode), not its id, so every later sync "
        "withholds it too and counts it (`withdrawn` in the sync report). Audit-logged. 404 "
        "ADDRESS_NOT_FOUND when no address with the id is served now.",
        response=models.WithdrawalResponse,
        scope=Scope.ADMIN,
        body=models.WithdrawBody,
        status=201,
        errors=(404,),
    ),
    needs=lambda d: d.withdrawal_ports(),
)
def withdraw_address(
    call: Call[None, models.WithdrawBody], ports: service.WithdrawalPorts
) -> models.WithdrawalResponse:
    assert call.token is not None  # admin operations always authenticate
    body = call.body
    made = service.withdraw(
        ports,
        address_id=body.address_id,
        scope=WithdrawalScope(body.scope),
        reason=body.reason,
        actor=call.token.token_id,
    )
    return models.WithdrawalResponse(data=_entry(made))


@endpoint(
    Operation(
        method="GET",
        path=WITHDRAWALS,
        name="listWithdrawals",
        tag="admin",
        summary="The withdrawn addresses, newest first",
        description="Each withdrawal with its scope, reason, time, acting token and the address it was "
        "made from.",
        response=models.WithdrawalsResponse,
        scope=Scope.ADMIN,
        query=models.WithdrawalsQuery,
    ),
    needs=lambda d: d.withdrawal_ports(),
)
def list_withdrawals(
    call: Call[models.WithdrawalsQuery, None], ports: service.WithdrawalPorts
) -> models.WithdrawalsResponse:
    return models.WithdrawalsResponse(
        data=[_entry(w) for w in service.withdrawals(ports, call.query.country)]
    )


@endpoint(
    Operation(
        method="DELETE",
        path=WITHDRAWALS + "/{withdrawalId}",
        name="reinstateAddress",
        tag="admin",
        summary="Undo a withdrawal made in error: served again within SNAPSHOT_CACHE_SECONDS",
        description="The address (or building) is served again by every route within the cache's "
        "seconds, and the next sync publishes it. Audit-logged. 404 WITHDRAWAL_NOT_FOUND when no "
        "withdrawal has the id.",
        response=models.WithdrawalResponse,
        scope=Scope.ADMIN,
        path_params=models.WithdrawalPath,
        errors=(404,),
        not_found="WITHDRAWAL_NOT_FOUND",
    ),
    needs=lambda d: d.withdrawal_ports(),
)
def reinstate_address(call: Call[None, None], ports: service.WithdrawalPorts) -> models.WithdrawalResponse:
    assert call.token is not None  # admin operations always authenticate
    undone = service.reinstate(ports, key=call.path["withdrawal_id"], actor=call.token.token_id)
    return models.WithdrawalResponse(data=_entry(undone))


def _entry(w: Withdrawal) -> models.WithdrawalEntry:
    return models.WithdrawalEntry(
        id=w.key,
        country=w.country,
        scope=w.scope.value,
        reason=w.reason,
        withdrawn_at=w.withdrawn_at,
        actor=w.actor,
        address_id=w.address_id,
        address=w.text,
    )
