"""The event store: loading aggregates, committing what commands did.

- ``store``: ``GameStore``, the eventsourcing application: load, commit, caches
- ``copies``: what the store hands out: working copies of aggregates, plain records of events
- ``store_refusals``: the store's failures (a refused write, an unreadable game) as refusals
- ``bounded_cache``: values that never change once stored, kept within bounds
- ``group_commit``: concurrent saves share one transaction
- ``locks``: one writer per game and per tournament within a process
- ``settings``: which database, and the store's tuning
- ``signing_key``: the server's Ed25519 key file: made, read, rotated
- ``sqlite_recorder``: SQLite's events stored with one statement a transaction
- ``pg_recorder``: PostgreSQL's events through one warm connection, as binary parameters
- ``recorder_errors``: a driver's exceptions as eventsourcing's own
- ``postgres``: eventsourcing's PostgreSQL factory, given libpq's settings for a cluster
- ``health``: the server's health follows the store (NOT_SERVING while no primary answers)
- ``transcoder``: eventsourcing's JSON transcoder, writing the same bytes faster
- ``topics``: the names stored events know their classes by, old and new

May import: ``model`` and the domain.
"""
