"""SWE-smith / SWE-bench rows: schema, loading, filtering, difficulty selection, splits, bundled task pack."""
