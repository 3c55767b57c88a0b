"""A database driver's exception as eventsourcing's own, for gamelog's
recorders (``pg_recorder``, ``sqlite_recorder``): the application tells a
lost race (``IntegrityError``) from a store that is away
(``OperationalError``) by the library's classes, as its own recorders raise
them; and a write whose commit is in doubt (``CommitInDoubt``) from one that
surely stored nothing.

    >>> import sqlite3
    >>> from eventsourcing import persistence as es
    >>> table = ((sqlite3.IntegrityError, es.IntegrityError),)
    >>> type(library_error(sqlite3.IntegrityError("taken"), table)).__name__
    'IntegrityError'
    >>> library_error(ValueError("other"), table) is None
    True
"""

from __future__ import annotations

from eventsourcing.persistence import OperationalError

ErrorTable = tuple[tuple[type[Exception], type[Exception]], ...]
"""(the driver's class, the library's), most specific first."""


def library_error(error: Exception, table: ErrorTable) -> Exception | None:
    """The library's exception for ``error``, or None if the table has none."""
    for theirs, ours in table:
        if isinstance(error, theirs):
            return ours(str(error))
    return None


class CommitInDoubt(OperationalError):
    """A write whose connection was lost after it was sent, and no primary
    could be reached to tell whether it committed: it may be stored or not.
    (An ``OperationalError``: the store went away, as far as the library's
    callers are concerned.)"""
