"""Live follow: a game's records streamed to its followers as they are stored.

- ``follow``: ``LiveFollow``, one process's live follow: admission, the fan-out, the listener
- ``fanout``: every followed game read once and redacted once per kind of viewer; its followers
- ``game_feed``: one followed game's records, and each as each kind of viewer may see it
- ``follow_limits``: who may open another stream (seats never wait for spectators)
- ``notifications``: across processes on PostgreSQL, one LISTEN connection a process
- ``play_session``: one Play stream: games joined, requests answered in order, acks after records

May import: ``usecases`` and everything below it; never gRPC (the streams'
transports, gRPC and the web page's event stream, live at the edge).
"""
