"""Reference knowledge about countries: ISO 3166-2 regions, postal formats and rules, postal
gazetteers, locales, calling codes, residential defaults, name order and the pool configuration.

The sync and the request path both import this package; it imports neither of them (only the
domain's value keys), so a request never loads the sync's readers to learn a country's facts.
Adding a country: one entry in `countries.py`, one in `data/countries.json` (see docs/pool.md)."""
