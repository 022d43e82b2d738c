"""The local stack: DynamoDB Local from the pinned npm package, and `chalice local` against it."""
