"""What the tests share, imported by module name (pyproject's ``pythonpath = ["tests"]``).

- ``random_play``: random legal play, in this process or through gRPC (the one way)
- ``two_seats``: the two-seat game most service tests play
- ``refusals``: a call through the client that must be refused
- ``cli``: the ``gamelog`` command as a subprocess against a server process
- ``follow``: following games: many aio streams at once, or one spectator in a thread
- ``races``: two clients racing for one position
- ``tournaments``: tournaments run in this process
- ``archives``: a finished tournament's archive, and a forger's tools for it
- ``index_scan``: the game index against a full scan of the log
- ``page``: the replay page and the table in a real headless Chromium

The fixtures (one per kind of store, server processes) are in tests/conftest.py;
tests/README.md maps the whole suite.
"""
