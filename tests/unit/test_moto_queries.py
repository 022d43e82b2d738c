"""The test session's partition-only Query (tests/support/moto_queries.py) answers exactly what
moto's own answers: items, order, pages and counts, forwards and backwards, with key conditions,
filters and limits, on tables with and without a sort key."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from tests.support import moto_queries

QUERIES: list[dict[str, Any]] = [
    {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "p1"}}},
    {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "p2"}}, "Limit": 7},
    {
        "KeyConditionExpression": "pk = :p AND begins_with(sk, :s)",
        "ExpressionAttributeValues": {":p": {"S": "p1"}, ":s": {"S": "s1"}},
        "ScanIndexForward": False,
    },
    {
        "KeyConditionExpression": "pk = :p AND sk BETWEEN :a AND :b",
        "ExpressionAttributeValues": {
            ":p": {"S": "p3"},
            ":a": {"S": "s05"},
            ":b": {"S": "s31"},
            ":n": {"N": "4"},
        },
        "FilterExpression": "n > :n",
        "Limit": 4,
    },
    {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "absent"}}},
]


def _all_pages(client: Any, table: str, query: dict[str, Any]) -> list[dict[str, Any]]:
    pages, start = [], None
    while True:
        asked = {"TableName": table, **query, **({"ExclusiveStartKey": start} if start else {})}
        page = client.query(**asked)
        pages.append({k: page.get(k) for k in ("Items", "Count", "ScannedCount", "LastEvaluatedKey")})
        start = page.get("LastEvaluatedKey")
        if not start:
            return pages


@pytest.fixture
def client(aws_env: None) -> Iterator[Any]:
    with mock_aws():
        dynamodb = boto3.client("dynamodb", region_name="us-east-1")
        for table, keys in (("ranged", ("pk", "sk")), ("hashed", ("pk",))):
            dynamodb.create_table(
                TableName=table,
                AttributeDefinitions=[{"AttributeName": k, "AttributeType": "S"} for k in keys],
                KeySchema=[
                    {"AttributeName": k, "KeyType": t} for k, t in zip(keys, ("HASH", "RANGE"), strict=False)
                ],
                BillingMode="PAY_PER_REQUEST",
            )
        for p in range(1, 5):
            for s in (40, 3, 17, 1, 25, 9, 33, 12, 5, 21, 38, 14, 30, 2, 11):
                item = {"pk": {"S": f"p{p}"}, "sk": {"S": f"s{s:02d}"}, "n": {"N": str((s * p) % 13)}}
                dynamodb.put_item(TableName="ranged", Item=item)
            dynamodb.put_item(TableName="hashed", Item={"pk": {"S": f"p{p}"}, "n": {"N": str(p)}})
        yield dynamodb


def test_a_partition_query_answers_what_moto_s_own_does(client: Any) -> None:
    asked = [("ranged", q) for q in QUERIES] + [("hashed", QUERIES[0]), ("hashed", QUERIES[-1])]
    moto_queries.uninstall()
    try:
        expected = [_all_pages(client, table, q) for table, q in asked]
    finally:
        moto_queries.install()
    answered = [_all_pages(client, table, q) for table, q in asked]
    assert answered == expected
    assert sum(len(page["Items"]) for pages in answered for page in pages) > 40  # not all empty
    assert any(len(pages) > 1 for pages in answered)  # pages were followed
