"""The game index: a read model of the log that listings, trees and short ids read.

- ``view``: what the index holds and can be asked (``GameIndexView``, ``GameFilter``)
- ``projection``: which stored events change the index, and how
- ``follower``: feeding the index from the log: catching up, following, rebuilding
- ``tables``: the index's tables in SQL, alike in both databases
- ``sql``: the writes and queries both databases share
- ``tournament_sql``: the tournaments' writes and queries
- ``sqlite``: the index in SQLite (and in memory)
- ``postgres``: the index in PostgreSQL, and how far the log is settled there
- ``adapters``: the index beside a store's events, its storage chosen by the store's

May import: ``storage``, ``model`` and the domain.
"""
