"""The web app: play at a table in the browser with friends and bots (``upriver serve``).

:mod:`~upriver.web.app` builds the FastAPI app, :mod:`~upriver.web.play.tables` runs the live
tables, :mod:`~upriver.web.store` keeps them in SQLite or PostgreSQL and :mod:`~upriver.web.play.protocol`
says what goes over the WebSocket. FastAPI is imported only when this package is.
"""
