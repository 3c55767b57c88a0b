"""The Swiss system for 2-player tables, in the spirit of the FIDE Dutch rules.

Players are paired in their *score groups* (equal points), from the top
group down. Within a group ordered by the pairing order (points, then
rating, then the standings; see :mod:`gamelog.tournaments.pairing`), the top
half plays the bottom half: 1st against the first of the bottom half, 2nd
against the second, and so on. Eight players on equal points pair 1–5, 2–6,
3–7, 4–8:

>>> from gamelog.tournaments.history import History
>>> order = ["a", "b", "c", "d", "e", "f", "g", "h"]
>>> level = {p: Fraction(1) for p in order}
>>> pair_swiss(order, level, History()).pairs
(('a', 'e'), ('b', 'f'), ('c', 'g'), ('d', 'h'))

Had ``a`` met ``e`` before, ``a`` takes the next of the bottom half instead
(a *transposition*), and the rest follow in order:

>>> met = History(met={"a": {"e": 1}, "e": {"a": 1}})
>>> pair_swiss(order, level, met).pairs
(('a', 'f'), ('b', 'e'), ('c', 'g'), ('d', 'h'))

The rules we follow, and where we simplify:

1. **No rematch where avoidable** (FIDE's absolute criterion). Before the
   pairing starts we compute the fewest rematches any pairing of the round
   can have (:mod:`gamelog.tournaments.matching`), and before each pair is
   committed we check that the players still unpaired can do that well. So
   the pairing has a rematch only when every pairing has one, however the
   score groups fall. Rematches, when unavoidable, are made only in the
   last score group, where every player left is pairable.
2. **Byes**: with an odd number of players, the bye goes to the first player
   in :func:`~gamelog.tournaments.byes.bye_order` (fewest byes, then lowest
   ranked) whose bye allows the fewest rematches; a second bye counts like
   a rematch.
3. **Floaters**: a score group that is odd, or cannot be paired without a
   rematch, sends players down to the next group: the fewest that let the
   rest of the group be paired, and the lowest-ranked ones (each player in
   turn tries to be paired before floating). A floater is paired first in
   the lower group, with its highest-ranked player it can meet (FIDE's
   heterogeneous bracket); the remaining players pair top half against
   bottom half again.
4. **Order of trials** within a group: for each player in turn, the bottom
   half in order (FIDE's transpositions), then the rest of the top half
   (its exchanges, simplified: the top-half player may meet a lower top-half
   player instead of swapping the two halves). A candidate with whom the
   colours can both be granted comes before one with a mild clash, which
   comes before a strong one, then an absolute one: colours rank above the
   transposition order, as in FIDE, but are chosen greedily player by player
   rather than minimised over the whole group.
5. **Colours** are then allocated per pair by
   :func:`~gamelog.tournaments.seating.allocate_colours` (alternate; no
   third game in a row with one colour and no difference beyond ±1 where
   the pairing could avoid it; equalise).

Not followed: FIDE's floater history (avoiding the same player floating in
consecutive rounds), its special rules for top scorers in the last round,
and its full optimisation of colour and float criteria over a bracket. A
search within one group tries a bounded number of pairings (about 20 per
player) before allowing two more floaters, so its cost stays linear in the
group's size; the rematch check above holds regardless.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from gamelog.tournaments.byes import bye_order
from gamelog.tournaments.history import History
from gamelog.tournaments.matching import fewest_rematches
from gamelog.tournaments.seating import Preference, colour_clash, colour_preference

TRIES_PER_PLAYER = 20


@dataclass(frozen=True)
class SwissPairing:
    pairs: tuple[tuple[str, str], ...]
    """(higher-ranked, lower-ranked) per table, top table first; colours come later."""
    bye: str | None
    rematches: int
    """Pairs who met before: the fewest any pairing of this round can have."""


def pair_swiss(
    order: Sequence[str], points: Mapping[str, Fraction], history: History
) -> SwissPairing:
    """Pair the players of ``order`` (the pairing order, best first)."""
    ranked = sorted(order, key=lambda player: -points[player])  # stable: keeps ``order``
    most_met = history.most_opponents()

    def met(a: str, b: str) -> bool:
        return history.times_met(a, b) > 0

    bye: str | None = None
    if len(ranked) % 2:
        bye = _choose_bye(ranked, history, met, most_met)
        ranked.remove(bye)
    allowed = fewest_rematches(ranked, met, most_met)
    pairer = _Pairer(ranked, points, history, allowed, most_met)
    pairer.run()
    rank = {player: index for index, player in enumerate(ranked)}
    pairs = sorted(
        ((a, b) if rank[a] < rank[b] else (b, a) for a, b in pairer.pairs),
        key=lambda pair: rank[pair[0]],
    )
    return SwissPairing(tuple(pairs), bye, pairer.used)


def _choose_bye(
    ranked: list[str], history: History, met: Callable[[str, str], bool], most_met: int
) -> str:
    best, best_cost = ranked[-1], None
    for candidate in bye_order(ranked, history.byes):
        had_bye = min(1, history.byes.get(candidate, 0))
        if best_cost is not None and best_cost <= had_bye:
            break
        rest = [player for player in ranked if player != candidate]
        cost = had_bye + fewest_rematches(rest, met, most_met)
        if best_cost is None or cost < best_cost:
            best, best_cost = candidate, cost
    return best


@dataclass
class _Step:
    player: str
    index: int
    """The player's index among the bracket's members."""
    candidates: Iterator[str | None]
    """Partners in the order to try; None means: float down."""
    made_split: bool
    choice: str | None = None
    chosen: bool = False


@dataclass
class _Bracket:
    floaters: list[str]
    residents: list[str]
    most_floats: int
    final: bool
    members: list[str] = field(init=False)
    placed: set[str] = field(default_factory=set)
    floated: list[str] = field(default_factory=list)
    top_half: list[str] | None = None
    bottom_half: list[str] | None = None

    def __post_init__(self) -> None:
        self.members = self.floaters + self.residents


class _Pairer:
    """Pairs the score groups top down, committing pairs as it goes."""

    def __init__(
        self,
        ranked: list[str],
        points: Mapping[str, Fraction],
        history: History,
        allowed: int,
        most_met: int,
    ) -> None:
        self.ranked = ranked
        self.points = points
        self.history = history
        self.allowed = allowed
        self.most_met = most_met
        self.rank = {player: index for index, player in enumerate(ranked)}
        self.preference: dict[str, Preference] = {
            player: colour_preference(history.colours(player)) for player in ranked
        }
        self.unpaired = set(ranked)
        self.used = 0
        self.pairs: list[tuple[str, str]] = []

    def met(self, a: str, b: str) -> bool:
        return self.history.times_met(a, b) > 0

    # -- the rematch check ----------------------------------------------------------

    def can_pair(self, a: str, b: str) -> bool:
        """Pairing a with b still lets the others pair with the fewest rematches."""
        used = self.used + self.met(a, b)
        if used > self.allowed:
            return False
        left = len(self.unpaired) - 2
        if left >= 2 * (self.most_met + 1):
            return True  # Dirac: the others can pair without any rematch
        rest = [p for p in self.ranked if p in self.unpaired and p != a and p != b]
        return used + fewest_rematches(rest, self.met) <= self.allowed

    def pair(self, a: str, b: str) -> None:
        self.unpaired -= {a, b}
        self.used += self.met(a, b)
        self.pairs.append((a, b))

    def unpair(self, a: str, b: str) -> None:
        self.unpaired |= {a, b}
        self.used -= self.met(a, b)
        self.pairs.remove((a, b))

    # -- score groups ---------------------------------------------------------------

    def run(self) -> None:
        groups: list[list[str]] = []
        for player in self.ranked:
            if groups and self.points[groups[-1][0]] == self.points[player]:
                groups[-1].append(player)
            else:
                groups.append([player])
        floaters: list[str] = []
        for index, residents in enumerate(groups):
            floaters = self.pair_group(floaters, residents, final=index == len(groups) - 1)

    def pair_group(self, floaters: list[str], residents: list[str], final: bool) -> list[str]:
        """Pair one score group with the floaters from above; return who floats on."""
        size = len(floaters) + len(residents)
        if final:
            bracket = _Bracket(floaters, residents, 0, final=True)
            if not self.search(bracket, budget=None):
                raise AssertionError("the last score group could not be paired")
            return []
        for most_floats in range(size % 2, size, 2):
            bracket = _Bracket(floaters, residents, most_floats, final=False)
            if self.search(bracket, budget=TRIES_PER_PLAYER * size + 100):
                return bracket.floated
        return floaters + residents

    def search(self, bracket: _Bracket, budget: int | None) -> bool:
        """Depth-first over each unplaced player's candidates in trial order;
        on success the pairs stay committed, on failure all are undone."""
        stack: list[_Step] = []
        tries = 0
        while True:
            start = stack[-1].index + 1 if stack else 0
            step = self.next_step(bracket, start)
            if step is None:
                return True
            stack.append(step)
            while True:
                if not stack:
                    return False
                top = stack[-1]
                self.undo(bracket, top)
                for candidate in top.candidates:
                    tries += 1
                    if budget is not None and tries > budget:
                        while stack:
                            self.undo(bracket, stack.pop())
                        return False
                    if candidate is None:
                        if len(bracket.floated) < bracket.most_floats:
                            bracket.placed.add(top.player)
                            bracket.floated.append(top.player)
                            top.choice, top.chosen = None, True
                            break
                    elif self.can_pair(top.player, candidate):
                        bracket.placed |= {top.player, candidate}
                        self.pair(top.player, candidate)
                        top.choice, top.chosen = candidate, True
                        break
                if top.chosen:
                    break
                stack.pop()
                if top.made_split:
                    bracket.top_half = bracket.bottom_half = None

    def undo(self, bracket: _Bracket, step: _Step) -> None:
        if not step.chosen:
            return
        bracket.placed.discard(step.player)
        if step.choice is None:
            bracket.floated.remove(step.player)
        else:
            bracket.placed.discard(step.choice)
            self.unpair(step.player, step.choice)
        step.choice, step.chosen = None, False

    def next_step(self, bracket: _Bracket, start: int) -> _Step | None:
        members = bracket.members
        index = start
        while index < len(members) and members[index] in bracket.placed:
            index += 1
        if index == len(members):
            return None
        player = members[index]
        made_split = False
        if index >= len(bracket.floaters) and bracket.top_half is None:
            self.split(bracket)
            made_split = True
        return _Step(player, index, self.candidates(bracket, player), made_split)

    def split(self, bracket: _Bracket) -> None:
        """Halve the residents still unplaced, leaving room for the floats allowed."""
        left = [p for p in bracket.residents if p not in bracket.placed]
        may_float = bracket.most_floats - len(bracket.floated)
        pairs = min(len(left) // 2, max(0, -(-(len(left) - may_float) // 2)))
        bracket.top_half, bracket.bottom_half = left[:pairs], left[pairs:]

    def candidates(self, bracket: _Bracket, player: str) -> Iterator[str | None]:
        """Partners for ``player`` in trial order, then None (float)."""
        if player in bracket.floaters:
            later = bracket.floaters[bracket.floaters.index(player) + 1 :]
            pools = (bracket.residents, later)
        else:
            assert bracket.top_half is not None and bracket.bottom_half is not None
            if player in bracket.top_half:
                later = bracket.top_half[bracket.top_half.index(player) + 1 :]
                pools = (bracket.bottom_half, later)
            else:
                later = bracket.bottom_half[bracket.bottom_half.index(player) + 1 :]
                pools = (later, [])
        mine = self.preference[player]
        for rematch in (False, True) if bracket.final else (False,):
            for clash in range(4):
                for pool in pools:
                    for other in pool:
                        if (
                            other not in bracket.placed
                            and other != player
                            and self.met(player, other) == rematch
                            and colour_clash(mine, self.preference[other]) == clash
                        ):
                            yield other
        yield None
