"""Address translation into nine display languages: truth first (the source's own names, then
official gazetteers), then script conversion, else the original text."""
