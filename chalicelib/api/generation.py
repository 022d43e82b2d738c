"""Generation: one address, a batch, and lookup by ID."""

from __future__ import annotations

from chalice.app import Blueprint

from chalicelib.api.endpoint import Call, Operation, endpoint
from chalicelib.api.models.addresses import (
    AddressPath,
    AddressResponse,
    BatchRequest,
    BatchResponse,
    GenerateQuery,
    GenerateResponse,
)
from chalicelib.api.pending import not_yet_available
from chalicelib.domain.tokens import Scope

generation = Blueprint(__name__)


@endpoint(
    generation,
    Operation(
        method="GET",
        path="/api/v1/generate",
        name="generateAddress",
        tag="generation",
        summary="One published address matching the filters, with a fictitious test profile",
        response=GenerateResponse,
        scope=Scope.GENERATE,
        query=GenerateQuery,
        errors=(404,),
        implemented=False,
    ),
)
def generate(call: Call[GenerateQuery, None]) -> GenerateResponse:
    raise not_yet_available("generate")


@endpoint(
    generation,
    Operation(
        method="POST",
        path="/api/v1/generate/batch",
        name="generateBatch",
        tag="generation",
        summary="Up to 50 published addresses matching the filters, each with a test profile",
        response=BatchResponse,
        scope=Scope.GENERATE,
        body=BatchRequest,
        errors=(404,),
        implemented=False,
    ),
)
def generate_batch(call: Call[None, BatchRequest]) -> BatchResponse:
    raise not_yet_available("batch generation")


@endpoint(
    generation,
    Operation(
        method="GET",
        path="/api/v1/addresses/{id}",
        name="getAddress",
        tag="generation",
        summary="A currently published address by its ID",
        response=AddressResponse,
        scope=Scope.READ,
        path_params=AddressPath,
        errors=(404,),
        implemented=False,
    ),
)
def get_address(call: Call[None, None]) -> AddressResponse:
    raise not_yet_available("address lookup")
