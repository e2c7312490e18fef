"""Corpora of game records: generated from seeded games of any agents (``generate``), read back record by
record with bad records reported and skipped (``corpus``), and summarised (``stats``)."""
