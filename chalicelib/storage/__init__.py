"""One module per DynamoDB table; the only package that knows key formats or imports PynamoDB."""
