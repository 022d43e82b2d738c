"""Use cases. Each receives its stores, clock and settings as arguments."""
