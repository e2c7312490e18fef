"""Corpora of game records: generated from seeded games of any agents (``generate``), read back record by
record with bad records reported and skipped (``corpus``), summarised (``stats``), exported from the arena
(``export``); DeepRocket's text record of a DouDizhu game, read and written (``deeprocket_text``)."""
