"""The gRPC edge: ``gamelog.v1`` served over the use cases.

- ``games``: the ``GameLog`` servicer, each call onto one use case
- ``tournaments``: the ``Tournaments`` servicer
- ``play``: the Play stream's requests read and its answers built
- ``handlers``: every method registered, its requests decoded, its refusals answered
- ``requests``: reading a call: token, ids, positions, bounds
- ``client_json``: JSON from clients, read within limits
- ``messages``: the answers built from what the use cases answer
- ``status``: refusals as statuses, applied to every call by construction
- ``reflection``: server reflection for stock tools (v1 and v1alpha)
- ``server``: running the server: health, reflection, graceful shutdown, the clock sweep

May import: every room of the service. Nothing imports it but the CLI.
"""
