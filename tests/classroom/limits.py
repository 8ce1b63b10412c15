"""The join limit filled from outside the store, for tests that need a client already refused."""

from __future__ import annotations

import time

from lessons.classroom import JOINS_PER_MINUTE, Classes, Database

#: How many minutes, from this one, :func:`fill_join_limit` fills: a test that crosses a minute's end on a slow
#: machine (or a fast one that starts at :59) still finds its client refused.
MINUTES = 4


def fill_join_limit(db: Database, client: str) -> int:
    """Count :data:`JOINS_PER_MINUTE` misses for ``client`` in this minute and the next few (the store's own key
    for it, as :meth:`Classes.join` counts them); the minute it started from. Counting them try by try is
    tests/classroom/test_store's; a page under test reads the wall clock, so a count filled for one minute alone
    failed a whole-suite run whose next join fell in the next minute."""
    key = Classes.client_key(client)
    minute = int(time.time()) // 60
    with db.transaction() as tx:
        for m in range(minute, minute + MINUTES):
            tx.execute("INSERT INTO join_attempts (client, minute, attempts) VALUES (?, ?, ?) "
                       "ON CONFLICT (client, minute) DO UPDATE SET attempts = excluded.attempts",
                       (key, m, JOINS_PER_MINUTE))
    return minute
