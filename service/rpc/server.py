"""Running the gRPC server: the GameLog service, health and reflection.

``serve`` builds the application on the chosen store, starts a server with
the standard health service (so load balancers and ``grpc_health_probe`` work)
and server reflection (so ``grpcurl`` works with no .proto at hand), and on
SIGTERM or SIGINT shuts down gracefully: health goes NOT_SERVING first, follow
streams end with the position to resume from (elsewhere), new calls are
refused, calls in flight get a grace period to finish.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import logging
import signal
import threading
import time
from collections.abc import Mapping
from concurrent import futures
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio  # type: ignore[attr-defined] # (stubs lag)

from gamelog.service.live.fanout import STALL_SECONDS
from gamelog.service.live.follow import LiveFollow
from gamelog.service.live.follow_limits import FollowLimits
from gamelog.service.rpc import handlers
from gamelog.service.rpc.games import SERVICE as GAMES
from gamelog.service.rpc.games import GameLogServicer
from gamelog.service.rpc.reflection import enable_reflection
from gamelog.service.rpc.requests import MAX_MESSAGE_BYTES
from gamelog.service.rpc.tournaments import SERVICE as TOURNAMENTS
from gamelog.service.rpc.tournaments import TournamentsServicer
from gamelog.service.storage.health import StoreWatch, store_watch
from gamelog.service.storage.signing_key import KeyRing
from gamelog.service.usecases.application import GameLog

log = logging.getLogger(__name__)

SERVICE_NAME = GAMES.full_name
GRACE_SECONDS = 10.0
KEEPALIVE_MS = 60_000
CLOCK_SWEEP_SECONDS = 1.0
"""How often running games with a time control are looked at (``Timekeeper``)."""
HELD_ROUNDS_EVERY = 10
"""Every this many clock sweeps, duplicate rounds whose tables are all over
but whose ends are held are ended (``TableResults.release_held_rounds``)."""


def open_application(
    env: Mapping[str, str], attempts: int = 5, keys: KeyRing | None = None
) -> GameLog:
    """The application on its store. Several processes starting at once on one
    PostgreSQL may race to create the tables; a short retry settles it."""
    for attempt in range(attempts):
        try:
            return GameLog(env=dict(env), keys=keys)
        except Exception as error:  # the library raises several kinds here
            if attempt == attempts - 1 or "postgres" not in env.get("PERSISTENCE_MODULE", ""):
                raise
            log.warning("opening the store failed (%s); retrying", error)
            time.sleep(0.2 * (attempt + 1))
    raise AssertionError("unreachable")


@dataclass
class RunningServer:
    """A server running on its own event loop thread; ``stop`` from any other."""

    server: grpc.aio.Server
    port: int
    app: GameLog
    live: LiveFollow
    health: Any  # grpc_health's asyncio HealthServicer
    loop: asyncio.AbstractEventLoop
    thread: threading.Thread
    workers: futures.ThreadPoolExecutor
    clock_sweep: asyncio.Task[None]
    store_watch: StoreWatch | None

    def stop(self, grace: float = GRACE_SECONDS) -> None:
        """Graceful: report NOT_SERVING, end the follow streams (each with the
        position to resume from), refuse new calls, let calls in flight finish."""
        if not self.thread.is_alive():
            return
        try:
            asyncio.run_coroutine_threadsafe(self._stop(grace), self.loop).result(grace + 30)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(30)
            self.workers.shutdown(wait=True, cancel_futures=True)
            self.live.close()
            self.app.close()

    async def _stop(self, grace: float) -> None:
        await self.health.enter_graceful_shutdown()
        if self.store_watch is not None:
            await self.store_watch.stop()
        self.clock_sweep.cancel()
        await self.live.stop()
        await self.server.stop(grace)


def start_server(
    env: Mapping[str, str],
    port: int = 50051,
    host: str = "127.0.0.1",
    tls_cert: str | None = None,
    tls_key: str | None = None,
    workers: int = 64,
    limits: FollowLimits | None = None,
    stall_seconds: float = STALL_SECONDS,
    clock_sweep_seconds: float = CLOCK_SWEEP_SECONDS,
    keys: KeyRing | None = None,
) -> RunningServer:
    """Open the store and serve it; returns once the server listens.

    The server is ``grpc.aio`` on an event loop in a thread of its own. Moves,
    reads and every other unary call are synchronous and run in a pool of
    ``workers`` threads; follow streams are coroutines on the loop and hold
    no thread, so they are bounded by ``limits``, not by the threads."""
    app = open_application(env, keys=keys)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="grpc-aio", daemon=True)
    thread.start()
    setup = _start(
        app, loop, thread, port, host, tls_cert, tls_key, workers, limits or FollowLimits(),
        stall_seconds, clock_sweep_seconds,
    )  # fmt: skip
    try:
        return asyncio.run_coroutine_threadsafe(setup, loop).result(120)
    except BaseException:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        app.close()
        raise


async def _start(
    app: GameLog,
    loop: asyncio.AbstractEventLoop,
    thread: threading.Thread,
    port: int,
    host: str,
    tls_cert: str | None,
    tls_key: str | None,
    workers: int,
    limits: FollowLimits,
    stall_seconds: float,
    clock_sweep_seconds: float,
) -> RunningServer:
    pool = futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="grpc-call")
    live = LiveFollow(app, limits, stall_seconds)
    server = grpc.aio.server(
        migration_thread_pool=pool,
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
            ("grpc.so_reuseport", 0),
            # Find clients that vanished without closing their streams, so
            # they give their follow places back.
            ("grpc.keepalive_time_ms", KEEPALIVE_MS),
            ("grpc.keepalive_timeout_ms", 20_000),
            # Calls that arrived but were not yet taken up by the event loop:
            # gRPC's default (1,000, and randomly refusing more up to 3,000)
            # cancels part of a crowd that starts following at once.
            ("grpc.server.max_pending_requests", limits.total),
            ("grpc.server.max_pending_requests_hard_limit", 2 * limits.total),
        ],
        # Unary calls may queue 8 per thread; the follow streams have their
        # own limits on top.
        maximum_concurrent_rpcs=workers * 8 + limits.total + 64,
    )
    handlers.serve(server, GameLogServicer(app, live, pool), GAMES)
    handlers.serve(server, TournamentsServicer(app), TOURNAMENTS)
    health_servicer = health_aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    enable_reflection((GAMES.full_name, TOURNAMENTS.full_name, health.SERVICE_NAME), server)
    address = f"{host}:{port}"
    try:
        if tls_cert and tls_key:
            credentials = grpc.ssl_server_credentials(
                [(Path(tls_key).read_bytes(), Path(tls_cert).read_bytes())]
            )
            bound = server.add_secure_port(address, credentials)
        else:
            bound = server.add_insecure_port(address)
    except RuntimeError as error:
        raise OSError(f"cannot listen on {address}: {error}") from None
    if bound == 0:
        raise OSError(f"cannot listen on {address}")
    await live.start()
    await server.start()

    async def report(store_up: bool) -> None:
        serving = health_pb2.HealthCheckResponse.SERVING
        status = serving if store_up else health_pb2.HealthCheckResponse.NOT_SERVING
        for name in ("", SERVICE_NAME):
            await health_servicer.set(name, status)

    await report(True)
    watch = store_watch(app.store, report)
    if watch is not None:
        watch.start()
    sweep = loop.create_task(_sweep(app, pool, clock_sweep_seconds))
    return RunningServer(
        server, bound, app, live, health_servicer, loop, thread, pool, sweep, watch
    )


async def _sweep(app: GameLog, pool: futures.Executor, seconds: float) -> None:
    """What happens by itself in games nobody touches: flags fall, once every
    ``seconds``; held rounds end (at once, and every ``HELD_ROUNDS_EVERY``
    sweeps)."""
    loop = asyncio.get_running_loop()
    for sweeps in itertools.count():
        if sweeps % HELD_ROUNDS_EVERY == 0:
            try:
                await loop.run_in_executor(pool, app.table_results.release_held_rounds)
            except Exception:  # the store away for a moment: the next sweep tries again
                log.exception("releasing held rounds failed")
        await asyncio.sleep(seconds)
        try:
            await loop.run_in_executor(pool, app.timekeeper.fall_flags)
        except Exception:
            log.exception("sweeping the clocks failed")


def tune_garbage_collection() -> None:
    """Keep the cycle collector from stalling a server that holds many streams.

    Every open stream is a few dozen long-lived objects (its task, coroutine
    frames, the call's state), so ten thousand streams are hundreds of
    thousands of objects, and with Python's default thresholds (a collection
    every 700 allocations, a full one every 100th of those) the collector
    walks them all again and again while it holds the GIL: measured with
    5,000 followers, a fifth of the server's CPU, PlayMove's median at
    975 ms and delivery's p99 at 470 ms, against 5 ms and 66 ms tuned. So
    what exists once the server runs (modules, the application) is frozen out
    of collection, and the young generation is collected every 50,000
    allocations. Cycles are still collected; they live a little longer."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)


def serve_forever(running: RunningServer, ready_message: str = "") -> None:
    """Block until SIGTERM or SIGINT, then stop gracefully."""
    tune_garbage_collection()
    stopping = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        log.info("signal %s: shutting down gracefully", signum)
        stopping.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    if ready_message:
        print(ready_message, flush=True)
    # A signal may be delivered to any thread (gRPC runs many); Python runs the
    # handler only when the main thread next executes bytecode, so it must not
    # sleep in one uninterrupted wait.
    while not stopping.wait(0.5):
        pass
    running.stop()
