"""The store: SQLAlchemy 2 tables, the engine (SQLite by default, PostgreSQL for scale)
and Alembic migrations. Services use sessions from here and never commit."""
