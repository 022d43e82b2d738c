"""Benchmarks: each prints ratios measured in one run against DynamoDB Local."""
