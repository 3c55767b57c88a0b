"""The replay board in the browser: ``gamelog web``.

A thin HTTP front end to the gamelog gRPC service. The page (plain HTML, CSS
and JavaScript in ``static/``, no build step, nothing fetched from elsewhere)
asks this front end for positions, records and trees; the front end asks the
gRPC service with the caller's token and hands back what the service shows
that caller. It keeps nothing and decides nothing: every rule about who may
see what stays in the service.

- ``gateway``: the gRPC calls, as plain JSON-ready data
- ``listing``: the game list and its filters
- ``tournaments``: events, rounds and tables (standings once the service has them)
- ``streaming``: server-sent events fed by a page's Play stream
- ``page_streams``: a page's Play stream: its game's records, and its moves sent on it
- ``app``: the Starlette application, its routes and headers
"""
