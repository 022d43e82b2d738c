"""Domain values shared by services and storage; no I/O here."""
