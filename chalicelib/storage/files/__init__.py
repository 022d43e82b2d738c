"""Files: a folder locally, an S3 bucket in AWS: the sync's work store, the source store, the IP
database files, local copies of S3 objects."""
