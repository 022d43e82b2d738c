"""Administrator command line: `python -m chalicelib.cli tokens create|list|revoke`."""
