"""Pool synchronization: published sources → validated, deduplicated addresses → a published snapshot."""
