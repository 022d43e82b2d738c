"""Where the service keeps and reads its data, by engine: `dynamodb/` (the tables), `files/` (a folder
or S3), `aws/` (other AWS services). The only package that knows key formats or imports PynamoDB,
boto3 or botocore."""
