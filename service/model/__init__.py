"""The aggregates the event store keeps, and the service's refusals.

- ``game``: ``Game``, one game's log guarded by its rules (its events and commands)
- ``game_records``: the records a game's commands write, framed and sealed
- ``game_fold``: what a stored record does to a game (the aggregate's evolve)
- ``game_time``: what a game's commands ask of a time control's clocks
- ``deciding``: asking the rules for a move's events, and folding them once
- ``snapshots``: a game's snapshot, its state through the state codec
- ``unreadable``: a stored record the rules cannot fold (damage, not a refusal)
- ``tournament``: ``Tournament``, one tournament's log of records
- ``tournament_tables``: which tournament here a game may be a table of
- ``credentials``: a game's seat and arbiter token hashes, apart from its record
- ``tournament_credentials``: a tournament's director and player token hashes
- ``chain_signatures``: the signatures of a game's or a tournament's chain, beside it
- ``tokens``: random tokens, kept only as hashes
- ``server_clock``: when a record is stored (the one reading of the wall clock)
- ``refusals``: the service's refusals, each with a reason and a gRPC status name

May import: the domain (``gamelog.games``, ``gamelog.replay``,
``gamelog.tournaments``) and eventsourcing's domain classes; nothing else
of the service.
"""
