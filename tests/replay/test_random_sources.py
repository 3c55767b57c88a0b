"""The random sources a move uses: salts read ahead, dice seeded on use."""

from __future__ import annotations

import os
import random

import pytest

from gamelog.games.protocol import lazy_rng_for, rng_for
from gamelog.replay.record import _RandomBytes, new_salt


def test_salts_are_128_bit_hex_and_never_repeat() -> None:
    salts = [new_salt() for _ in range(2000)]  # several read-aheads
    assert all(len(s) == 32 and int(s, 16) >= 0 for s in salts)
    assert len(set(salts)) == len(salts)


def test_random_bytes_hand_each_byte_out_once_across_refills() -> None:
    source = _RandomBytes(chunk=64)
    taken = [source.take(16) for _ in range(40)]
    assert all(len(t) == 16 for t in taken)
    assert len(set(taken)) == len(taken)
    assert len(source.take(100)) == 100  # more than a chunk at once


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_does_not_reuse_the_parents_read_ahead() -> None:
    source = _RandomBytes(chunk=4096)
    source.take(16)  # the parent now holds bytes it read ahead
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.write(write, source.take(16))
        os._exit(0)
    os.close(write)
    child = os.read(read, 16)
    os.waitpid(pid, 0)
    os.close(read)
    assert child != source.take(16)


def test_lazy_dice_draw_what_eager_ones_draw() -> None:
    for ply in range(20):
        lazy, eager = lazy_rng_for(b"seed", ply), rng_for(b"seed", ply)
        population = list(range(90))
        lazy_hand, eager_hand = lazy.sample(population, 5), eager.sample(population, 5)
        assert lazy_hand == eager_hand
        lazy_order, eager_order = list(population), list(population)
        lazy.shuffle(lazy_order)
        eager.shuffle(eager_order)
        assert lazy_order == eager_order
        assert lazy.random() == eager.random()


def test_lazy_dice_not_used_are_never_seeded() -> None:
    lazy = lazy_rng_for(b"seed", 1)
    assert lazy._rng is None
    assert isinstance(lazy.getstate(), tuple)
    assert lazy._rng is not None
    assert isinstance(lazy._rng, random.Random)
