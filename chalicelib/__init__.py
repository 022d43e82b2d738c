"""Address Generation Service."""
