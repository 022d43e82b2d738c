"""IP location context: where an IP address is, in the catalog's terms, and ip-region generation."""
