"""Alembic migrations of the server schema (run by ``coloretto.server.db.upgrade``)."""
