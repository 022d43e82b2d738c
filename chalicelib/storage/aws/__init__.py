"""Other AWS services: Step Functions (the sync's launcher) and Secrets Manager."""
