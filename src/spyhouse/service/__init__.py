"""Use cases, one database transaction each: the caller (a request handler or a worker
job) owns the transaction; nothing here commits. Times come from an injected clock.

``games`` (create, join, start, host powers), ``play`` (seats, views, orders: all
seat authorization), ``turns`` (due turns, processing), ``schedule`` (deadlines,
pure), ``accounts``. The contract is ``docs/service.md``.
"""
