"""Forged tournament archives, made as an attacker who reads the source would:
the tournament's records changed and sealed again with the project's own
``seal``, so every hash chain is consistent with itself. Each is refused on
import and fails the audit, with a reason naming what was changed.

What a hash chain cannot prove (that this is the record the server kept) a
signature does: ``test_archive_signatures`` covers the forgeries only a
signature catches.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

import pytest

from gamelog.replay.tournament_archive import parse_archive
from gamelog.replay.tournament_audit import audit_tournament
from gamelog.service.model.refusals import Refused
from gamelog.service.usecases.application import GameLog
from gamelog.tournaments.settings import TIEBREAKS

from support.archives import Records, finished_archive, resealed, with_standings_recomputed

MEMORY = {"PERSISTENCE_MODULE": "eventsourcing.popo"}


@pytest.fixture(scope="module")
def archive() -> dict[str, Any]:
    return finished_archive()


def forged(archive: dict[str, Any], change: Callable[[Records], Records]) -> dict[str, Any]:
    """The archive changed and sealed again; its signatures, which the
    forger cannot make again, left out (an unsigned archive still imports)."""
    copy = json.loads(json.dumps(archive))
    del copy["signatures"]
    records = change(copy["tournament"]["records"])
    copy["tournament"]["records"] = resealed(with_standings_recomputed(records))
    return copy


def names_swapped(records: Records) -> Records:
    registered = [r for r in records if r["kind"] == "player-registered"]
    first, second = registered[0]["player"], registered[1]["player"]
    first["name"], second["name"] = second["name"], first["name"]
    return records


def event_renamed(records: Records) -> Records:
    records[0].update(name="Grand Prix", site="Bergen", dates="2026-12-24")
    return records


def tiebreaks_reordered(records: Records) -> Records:
    """Another tie-break order, one the later rounds' pairings do not betray
    (the attacker tries orders until the chain audits clean on its own)."""
    for order in itertools.permutations(TIEBREAKS, 3):
        records[0]["tiebreaks"] = list(order)
        if audit_tournament(resealed(with_standings_recomputed(records))).ok:
            return records
    raise AssertionError("every other tie-break order changes a pairing")


FORGERIES = {
    "two players' names swapped": (names_swapped, "PlayerNames"),
    "the event's name, site and dates changed": (event_renamed, "Event tag"),
    "the tie-break order changed": (tiebreaks_reordered, "TournamentCreation"),
}


def test_the_forger_reseals_a_chain_that_verifies(archive: dict[str, Any]) -> None:
    """The forgeries below are what an attacker makes: each parses, its chain
    verifies, its standings are the ones its records give."""
    for change, _ in FORGERIES.values():
        copy = forged(archive, change)
        parsed = parse_archive(copy)
        assert audit_tournament(parsed.records).ok


@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_resealed_forgery_is_refused_on_import_naming_the_table(
    archive: dict[str, Any], forgery: str
) -> None:
    change, named = FORGERIES[forgery]
    copy = forged(archive, change)
    target = GameLog(env=MEMORY)
    with pytest.raises(Refused, match="audit") as refused:
        target.tournament_files.import_tournament(copy)
    assert named in refused.value.message
    assert "round 1 table 1" in refused.value.message
    assert target.listing.list_games(50).games == []  # nothing was stored
    target.close()


@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_resealed_forgery_does_not_audit_clean(archive: dict[str, Any], forgery: str) -> None:
    change, named = FORGERIES[forgery]
    parsed = parse_archive(forged(archive, change))
    games = {entry.records[0]["hash"]: entry.records for entry in parsed.games}
    report = audit_tournament(
        parsed.records, games=games, tournament_id=archive["tournament"]["tournament_id"]
    )
    assert not report.ok
    assert report.first_difference is not None and named in report.first_difference.problem


def test_the_unforged_archive_imports_and_audits_with_nothing_left_unchecked(
    archive: dict[str, Any],
) -> None:
    parsed = parse_archive(archive)
    games = {entry.records[0]["hash"]: entry.records for entry in parsed.games}
    report = audit_tournament(parsed.records, games=games)
    assert report.ok and report.notes == []
    target = GameLog(env=MEMORY)
    target.tournament_files.import_tournament(archive)
    target.close()


def test_an_old_archive_without_the_new_tags_imports_and_says_what_it_cannot_check(
    archive: dict[str, Any],
) -> None:
    """Tables seated before they carried the creation's hash and the players'
    names: such an archive still imports, and its audit says what went unchecked."""
    copy = json.loads(json.dumps(archive))
    del copy["signatures"]
    renamed: dict[str, str] = {}
    for game in copy["games"]:
        created = dict(game["records"][0])
        del created["metadata"]["TournamentCreation"], created["metadata"]["PlayerNames"]
        old_hashes = [r["hash"] for r in game["records"]]
        game["records"] = resealed([created, *game["records"][1:]])
        renamed.update(zip(old_hashes, (r["hash"] for r in game["records"]), strict=True))
    for record in copy["tournament"]["records"]:
        for table in record.get("tables", ()):
            table["game"] = renamed[table["game"]]
        for key in ("game", "end") if record["kind"] in ("result-recorded", "end-held") else ():
            if key in record:
                record[key] = renamed[record[key]]
    copy["tournament"]["records"] = resealed(copy["tournament"]["records"])
    parsed = parse_archive(copy)
    games = {entry.records[0]["hash"]: entry.records for entry in parsed.games}
    report = audit_tournament(parsed.records, games=games)
    assert report.ok
    assert any("TournamentCreation" in note for note in report.notes)
    assert any("PlayerNames" in note for note in report.notes)
    target = GameLog(env=MEMORY)
    target.tournament_files.import_tournament(copy)
    target.close()


# -- forgeries the rules re-decide: refused before, refused still ------------------------


def result_reversed(records: Records) -> Records:
    recorded = next(r for r in records if r["kind"] == "result-recorded")
    recorded["ranking"] = list(reversed(recorded["ranking"]))
    return records


def seats_swapped(records: Records) -> Records:
    paired = next(r for r in records if r["kind"] == "round-paired")
    table = paired["tables"][0]
    table["seats"] = list(reversed(table["seats"]))
    return records


def another_seed_revealed(records: Records) -> Records:
    records[-1]["seed"] = "00" * 32
    return records


def a_player_registered_late(records: Records) -> Records:
    late = json.loads(json.dumps(next(r for r in records if r["kind"] == "player-registered")))
    late["player"] = {**late["player"], "id": "zed", "name": "Zed"}
    late["round"] = 1
    at = next(i for i, r in enumerate(records) if r["kind"] == "round-paired")
    return [*records[: at + 1], late, *records[at + 1 :]]


OLD_FORGERIES = {
    "a recorded result reversed": result_reversed,
    "a table's seats swapped": seats_swapped,
    "another seed revealed": another_seed_revealed,
    "a player registered into a round already paired": a_player_registered_late,
}


@pytest.mark.parametrize("forgery", OLD_FORGERIES)
def test_forgeries_the_rules_re_decide_stay_refused(archive: dict[str, Any], forgery: str) -> None:
    copy = json.loads(json.dumps(archive))
    del copy["signatures"]
    records = OLD_FORGERIES[forgery](copy["tournament"]["records"])
    copy["tournament"]["records"] = resealed(records)
    target = GameLog(env=MEMORY)
    with pytest.raises(Refused, match="audit"):
        target.tournament_files.import_tournament(copy)
    assert target.listing.list_games(50).games == []
    target.close()


def test_final_standings_edited_stay_refused(archive: dict[str, Any]) -> None:
    copy = json.loads(json.dumps(archive))
    del copy["signatures"]
    records = copy["tournament"]["records"]
    first, second = records[-1]["standings"][:2]
    first["player"], second["player"] = second["player"], first["player"]
    copy["tournament"]["records"] = resealed(records)
    target = GameLog(env=MEMORY)
    with pytest.raises(Refused, match="final standings differ"):
        target.tournament_files.import_tournament(copy)
    target.close()
