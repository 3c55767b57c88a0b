"""The application and its use cases: what the service does, free of gRPC.

- ``application``: ``GameLog``, the use cases composed over one store
- ``commands``: create a game, play a move, take back, fork
- ``play_on_loop``: a move decided on the server's event loop
- ``creation``: a new game checked and dealt
- ``queries``: positions as a viewer sees them, legal moves, records, diff, audit
- ``showing``: records as one caller may see them, with notation
- ``listing``: stored games, trees of branches, short ids, reindex
- ``record_files``: exporting a game with its branches, importing record files
- ``timekeeper``: time-outs, recorded as they are noticed, and the sweep
- ``table_results``: a tournament table's result saved with its game's end
- ``following``: what live streams read from the store
- ``access``: who may see and do what, from a token
- ``answers``: what the game use cases answer (plain frozen data)
- ``signing``: chain heads signed at ends and exports, kept beside the chains
- ``tournament_commands``: create, register, pair, override, results, finish
- ``tournament_creation``: a new tournament's settings checked into its first record
- ``tournament_seating``: a round's tables made games, when paired and seated again
- ``tournament_input``: checking what a director types
- ``tournament_queries``: a tournament, its standings, records and audit
- ``tournament_files``: tournament archives: export and import
- ``tournament_listing``: the stored tournaments, newest first; short tournament ids
- ``tournament_answers``: what the tournament use cases answer
- ``ratings``: ratings across events per game type, from the index's rated games

May import: ``index``, ``storage``, ``model`` and the domain; never gRPC.
"""
