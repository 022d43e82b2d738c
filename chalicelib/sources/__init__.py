"""Importers for published address formats: OpenAddresses (CSV, GeoJSON lines) and OpenStreetMap.
Each streams RawRecords; none holds a whole file in memory."""
