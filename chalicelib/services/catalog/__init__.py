"""Location search and hierarchy over the published catalog."""
