"""The service: gamelog's event store behind a gRPC API, in six rooms.

Each room is a package with one concept per module; its ``__init__`` says
what it is for, lists its modules and says what it may import. Imports run
one way only, from the edge to the centre (a test guards it):

    rpc  ──►  live  ──►  usecases  ──►  index  ──►  storage  ──►  model

- ``rpc``: the gRPC adapters: the servicers, requests read and bounded,
  answers built, refusals as statuses, reflection, the server.
- ``live``: live follow: the per-process fan-out, who may follow,
  notifications across processes.
- ``usecases``: the application (``GameLog``) and its use cases: commands,
  queries, listings, record files, clocks, tournaments, who may see what.
- ``index``: the game index, a read model of the log: its projection, its
  SQLite and PostgreSQL views, the follower that feeds it.
- ``storage``: the event store (eventsourcing's application), group commit,
  the recorders and the store's settings.
- ``model``: the aggregates (a game, a tournament, their credentials) and
  the service's refusals.

Everything may import the domain (``gamelog.games``, ``gamelog.replay``,
``gamelog.tournaments``), which imports nothing of the service, the CLI or
the web page. docs/design.md draws the whole house.
"""
