"""Infrastructure: the local stack (`local/`, make run) and the AWS deployment as a CDK app (`aws/`)."""
