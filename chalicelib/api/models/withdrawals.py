"""The models of withdrawn addresses (the administrators' API)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from chalicelib.api.models.common import ApiModel, BodyModel, CountryCode, Id, QueryModel

MAX_REASON_LENGTH = 500
Scope = Literal["address", "building"]


class WithdrawBody(BodyModel):
    """What to withdraw, and why"""

    address_id: Id = Field(description="A served address's id: it, or its building, is withdrawn")
    scope: Scope = Field(
        default="address",
        description="`address`: this address (its street, number, unit and postcode); `building`: every "
        "address of its number, street and postcode, whatever the unit",
    )
    reason: Annotated[str, StringConstraints(min_length=1, max_length=MAX_REASON_LENGTH)] = Field(
        description="Why (a resident's request, its reference): kept with it and in the audit log",
        examples=["Resident's request of 2026-11-27, ticket 4411"],
    )


class WithdrawalEntry(ApiModel):
    """A withdrawal: never served again, by any route, from any snapshot, after any later sync"""

    id: str = Field(description="The digest of what identifies the address (or building) it withdraws")
    country: str
    """ISO 3166-1 alpha-2"""
    scope: Scope
    """address or building"""
    reason: str
    """Why, as the operator wrote it"""
    withdrawn_at: datetime
    """When (UTC)"""
    actor: str = Field(description="The administrator's token id")
    address_id: str = Field(description="The address it was made from (its id then)")
    address: str = Field(description="That address as it was served then")


class WithdrawalResponse(ApiModel):
    """The answer of POST /api/v1/admin/withdrawals, and of DELETE (the withdrawal undone)"""

    data: WithdrawalEntry
    """The withdrawal"""


class WithdrawalPath(ApiModel):
    withdrawal_id: Id = Field(alias="withdrawalId")
    """A withdrawal's id, as the list gives it"""


class WithdrawalsQuery(QueryModel):
    country: CountryCode | None = Field(default=None, description="One country's; every country's if absent")


class WithdrawalsResponse(ApiModel):
    """The answer of GET /api/v1/admin/withdrawals"""

    data: list[WithdrawalEntry]
    """Newest first"""
