"""DynamoDB tables: one module per table (pool, registry, tokens, rate limits, audit), the one place
that knows their key formats and imports PynamoDB; `_wire` and `_dynamo` are their shared plumbing."""
