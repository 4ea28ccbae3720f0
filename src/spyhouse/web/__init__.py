"""The web layer: FastAPI pages and the JSON API (``app.create_app``), owning every route."""
