"""Generation: exact uniform draws from a country's published snapshot, with fictitious profiles."""
