"""The class store on both databases (see conftest.py): classes, joining, polls, votes, answers, the dashboard."""

from __future__ import annotations

import hashlib
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from lessons.classroom import (
    ALPHABET,
    JOINS_PER_HOUR,
    JOINS_PER_MINUTE,
    RESUME_LENGTH,
    BadInput,
    ClassEnded,
    ClassError,
    Classes,
    ClassUnavailable,
    NoPoll,
    NotTeacher,
    TooManyAttempts,
    UnknownLearner,
    VotingClosed,
    as_json,
    limit_key,
    open_database,
    shown_resume,
)

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
QUESTION = {"id": "lesson:bpe:first-merge", "prompt": "Which pair merges first?", "kind": "choice",
            "choices": ["c + h", "h + a", "a + i"], "where": "/Train"}


def vid() -> str:
    return str(uuid.uuid4())


def count(db, sql, params=()):
    with db.transaction() as tx:
        return tx.one(sql, params)[0]


# -- starting, joining, resuming -------------------------------------------------------------------------------


def test_start_gives_a_code_without_look_alikes_and_a_long_secret_kept_hashed(classes, db):
    started = classes.start("  Week 3: BPE  ", now=T0)
    assert len(started.code) == 6 and set(started.code) <= set(ALPHABET)
    assert not set("0O1IL") & set(ALPHABET)
    assert len(started.teacher_secret) >= 40
    assert started.expires == T0 + timedelta(days=30)
    with db.transaction() as tx:
        title, stored = tx.one("SELECT title, secret_hash FROM classes WHERE code = ?", (started.code,))
    assert title == "Week 3: BPE"
    assert stored == hashlib.sha256(started.teacher_secret.encode()).hexdigest()
    assert started.teacher_secret not in stored
    assert classes.is_teacher(started.code, started.teacher_secret)
    assert not classes.is_teacher(started.code, started.teacher_secret[:-1] + "x")
    assert not classes.is_teacher(started.code, None)
    assert not classes.is_teacher("ZZZZZZ", started.teacher_secret)


def test_join_then_resume_on_another_device(classes):
    started = classes.start("Week 3")
    asha = classes.join(started.code.lower(), "  Asha ", client="laptop")
    assert (asha.code, asha.name) == (started.code, "Asha")
    assert len(asha.resume_code) == RESUME_LENGTH == 16 and set(asha.resume_code) <= set(ALPHABET)
    typed = shown_resume(asha.resume_code).lower()  # as the page shows it (ABCD-EFGH-...), typed in lower case
    assert typed.count("-") == 3 and classes.resume(started.code, typed, client="phone") == asha
    assert classes.resume(started.code, " ".join(typed.split("-")), client="phone") == asha
    with pytest.raises(UnknownLearner):
        classes.resume(started.code, "A" * 16, client="phone")
    with pytest.raises(UnknownLearner):
        classes.resume(started.code, asha.resume_code[:8], client="phone")  # its first half is no code
    assert classes.info(started.code).joined == 1


def test_a_resume_code_given_before_codes_grew_to_16_characters_still_works(classes, db):
    """Learners who joined when resume codes had 8 characters keep theirs (it is in the database)."""
    started = classes.start("Week 3")
    asha = classes.join(started.code, "Asha", client="laptop")
    with db.transaction() as tx:
        tx.execute("UPDATE learners SET resume_code = ? WHERE learner_id = ?", ("ABCD2345", asha.learner_id))
    assert classes.resume(started.code, "abcd-2345", client="phone").learner_id == asha.learner_id


def test_resume_codes_are_unique_within_a_class(classes):
    code = classes.start("Big class").code
    learners = [Classes(classes.db, joins_per_minute=1000).join(code, f"L{i}", client="lab") for i in range(60)]
    assert len({learner.resume_code for learner in learners}) == 60
    assert len({learner.learner_id for learner in learners}) == 60


def test_a_wrong_a_closed_and_an_expired_code_get_the_same_answer(classes):
    closed = classes.start("Closed").code
    classes.end(closed)
    expired = classes.start("Old", expires_days=30, now=datetime.now(UTC) - timedelta(days=31)).code
    never = next(c for c in ("ABCDEF", "GHJKMN", "PQRSTU") if c not in (closed, expired))
    seen = set()
    for code in (never, closed, expired, "!!", "' OR '1'='1", "", 42, "A" * 1000):
        with pytest.raises(ClassUnavailable) as caught:
            classes.join(code, "Asha", client=f"c{len(seen)}-{code!r}")
        seen.add((type(caught.value), str(caught.value)))
    assert seen == {(ClassUnavailable, "No open class has that code.")}


def test_a_whole_class_behind_one_school_address_joins_at_once(classes):
    """Only wrong codes count against a client: 60 learners joining from one address in one minute all get in."""
    code = classes.start("One NAT").code
    names = [classes.join(code, f"L{i}", client="203.0.113.9", now=T0).name for i in range(60)]
    assert names == [f"L{i}" for i in range(60)]


def test_joining_is_rate_limited_per_client_across_replicas(db_url):
    first, second = open_database(db_url), open_database(db_url)  # two replicas, one database
    now = datetime.now(UTC).replace(second=0, microsecond=0)  # the start of a minute (the class must be open)
    try:
        one, two = Classes(first), Classes(second)
        code = one.start("Week 3").code
        wrong = "ABCDEF" if code != "ABCDEF" else "GHJKMN"
        for i in range(JOINS_PER_MINUTE):
            with pytest.raises(ClassUnavailable):
                (one if i % 2 else two).join(wrong, "x", client="10.0.0.7", now=now)
        with pytest.raises(TooManyAttempts):
            two.join(code, "Asha", client="10.0.0.7", now=now)
        with pytest.raises(TooManyAttempts):
            one.resume(code, "A" * 16, client="10.0.0.7", now=now + timedelta(seconds=59))
        assert one.join(code, "Ravi", client="10.0.0.8", now=now).name == "Ravi"  # another client
        assert two.join(code, "Asha", client="10.0.0.7", now=now + timedelta(minutes=1)).name == "Asha"
        with first.transaction() as tx:
            assert "10.0.0.7" not in {row[0] for row in tx.rows("SELECT client FROM join_attempts")}
    finally:
        first.close()
        second.close()


def test_a_guesser_is_refused_for_the_hour_after_200_misses(classes):
    """A minute's limit (30 misses) every minute would still allow 43,200 tries a day: the hour's (200) holds a
    guesser to 4,800 a day from one address, and then the address's right codes wait too, until the hour passes."""
    code = classes.start("Week 3").code
    wrong = "ABCDEF" if code != "ABCDEF" else "GHJKMN"
    start = datetime.now(UTC).replace(second=0, microsecond=0)
    tries = 0
    for minute in range(8):
        for _ in range(JOINS_PER_MINUTE):
            try:
                classes.join(wrong, "x", client="198.51.100.4", now=start + timedelta(minutes=minute))
            except TooManyAttempts:
                break
            except ClassUnavailable:
                tries += 1
    assert tries == JOINS_PER_HOUR == 200
    with pytest.raises(TooManyAttempts, match="last hour"):
        classes.join(code, "Asha", client="198.51.100.4", now=start + timedelta(minutes=30))
    assert classes.join(code, "Asha", client="198.51.100.4", now=start + timedelta(minutes=61)).name == "Asha"


def test_an_ipv6_network_counts_as_one_client_and_mapped_ipv4_as_its_address(classes):
    """An IPv6 /64 is one household's or one attacker's: every address in it shares the count."""
    code = classes.start("Week 3").code
    wrong = "ABCDEF" if code != "ABCDEF" else "GHJKMN"
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    for i in range(JOINS_PER_MINUTE):
        with pytest.raises(ClassUnavailable):
            classes.join(wrong, "x", client=f"2001:db8:1:2::{i + 1:x}", now=now)
    with pytest.raises(TooManyAttempts):
        classes.join(code, "x", client="2001:db8:1:2:ffff::9", now=now)
    assert classes.join(code, "Ravi", client="2001:db8:1:3::1", now=now).name == "Ravi"  # another /64
    assert limit_key("::ffff:203.0.113.9") == limit_key("203.0.113.9") == "203.0.113.9"


def test_a_learner_of_an_ended_class_is_told_so_and_it_is_no_miss(classes):
    """The resume code of an ended class (a reload the day after, a cookie): "your class has ended", not "no open
    class", and no miss against the room's address; a stranger's code for it is still just "no open class"."""
    started = classes.start("Week 3")
    asha = classes.join(started.code, "Asha", client="room")
    vote_poll = classes.pose(started.code, started.teacher_secret, QUESTION)
    classes.end(started.code)
    for _ in range(JOINS_PER_MINUTE + 5):  # the whole room reloads: not one miss
        with pytest.raises(ClassEnded, match="Week 3"):
            classes.resume(started.code, asha.resume_code, client="room")
    with pytest.raises(ClassEnded, match="not counted"):  # a vote sent after the end
        classes.vote(started.code, asha.learner_id, vote_poll.poll_id, 1, "h + a", vote_id=vid())
    with pytest.raises(ClassUnavailable) as stranger:
        classes.resume(started.code, "B" * 16, client="room")
    assert type(stranger.value) is ClassUnavailable
    with pytest.raises(ClassUnavailable) as stranger:
        classes.join(started.code, "Eve", client="room")
    assert type(stranger.value) is ClassUnavailable


@pytest.mark.parametrize("name", ["A" * 40, "आशा", "क्\u200dष", "  Ravi  "])
def test_names_up_to_40_characters_any_script_are_kept(classes, name):
    code = classes.start("Names").code
    assert classes.join(code, name, client="n").name == name.strip()


@pytest.mark.parametrize("name", ["A" * 41, "", "   ", "Asha\x00", "Asha\nRavi", "\u202eahsA", "Asha\x1b[31m", None, 7])
def test_names_too_long_empty_or_with_control_characters_are_refused(classes, name):
    code = classes.start("Names").code
    with pytest.raises(BadInput):
        classes.join(code, name, client="n")
    assert classes.info(code).joined == 0


@pytest.mark.parametrize("bad", [{"title": "T" * 81}, {"title": " "}, {"expires_days": 0}, {"expires_days": 366},
                                 {"expires_days": True}, {"expires_days": "3"}])
def test_titles_and_expiry_are_bounded(classes, bad):
    with pytest.raises(BadInput):
        classes.start(**{"title": "Week 3", **bad})


# -- polls and votes ---------------------------------------------------------------------------------------------


@pytest.fixture
def room(classes):
    """A class with three learners."""
    started = classes.start("Week 3")
    learners = [classes.join(started.code, name, client=name) for name in ("Asha", "Ravi", "Meera")]
    return classes, started.code, started.teacher_secret, learners


def test_a_poll_open_show_vote_again_reveal_close(room):
    classes, code, secret, (asha, ravi, meera) = room
    assert classes.current(code) is None
    versions = [classes.version(code)]
    poll = classes.pose(code, secret, QUESTION)
    assert (poll.round, poll.phase, poll.truth, poll.question) == (1, "open", None, QUESTION)
    assert classes.current(code) == poll
    versions.append(classes.version(code))
    assert classes.vote(code, asha.learner_id, poll.poll_id, 1, "c + h", vote_id=vid())
    assert classes.vote(code, ravi.learner_id, poll.poll_id, 1, "h + a", vote_id=vid())
    versions.append(classes.version(code))
    assert classes.tally(code, poll.poll_id, 1).counts == {"c + h": 1, "h + a": 1}
    assert classes.tally(code, poll.poll_id, 1).answered == 2 and classes.tally(code, poll.poll_id, 1).joined == 3

    shown = classes.show(code, secret)
    assert (shown.phase, shown.truth) == ("shown", None)
    versions.append(shown.version)
    with pytest.raises(VotingClosed):
        classes.vote(code, meera.learner_id, poll.poll_id, 1, "c + h", vote_id=vid())

    again = classes.vote_again(code, secret)
    assert (again.round, again.phase) == (2, "open")
    versions.append(again.version)
    with pytest.raises(VotingClosed):  # round 1 is over
        classes.vote(code, meera.learner_id, poll.poll_id, 1, "c + h", vote_id=vid())
    for learner in (asha, ravi, meera):
        assert classes.vote(code, learner.learner_id, poll.poll_id, 2, "c + h", vote_id=vid())
    rounds = classes.tallies(code, poll.poll_id)
    assert [(t.round, t.answered, t.counts) for t in rounds] == [(1, 2, {"c + h": 1, "h + a": 1}),
                                                                 (2, 3, {"c + h": 3})]
    revealed = classes.reveal(code, secret, "c + h", "c and h are side by side most often.")
    assert (revealed.phase, revealed.truth, revealed.explanation) == ("revealed", "c + h",
                                                                      "c and h are side by side most often.")
    assert classes.current(code).truth == "c + h"
    versions.append(revealed.version)
    with pytest.raises(VotingClosed):
        classes.vote(code, asha.learner_id, poll.poll_id, 2, "h + a", vote_id=vid())
    with pytest.raises(BadInput):
        classes.vote_again(code, secret)
    classes.close_poll(code, secret)
    assert classes.current(code) is None
    versions.append(classes.version(code))
    assert versions == sorted(set(versions)), versions  # every step and vote changed it


def test_posing_again_replaces_the_current_poll_and_old_polls_take_no_votes(room):
    classes, code, secret, (asha, *_) = room
    first = classes.pose(code, secret, QUESTION)
    second = classes.pose(code, secret, {**QUESTION, "id": "q2", "choices": None})
    assert classes.current(code).poll_id == second.poll_id
    with pytest.raises(VotingClosed):
        classes.vote(code, asha.learner_id, first.poll_id, 1, "c + h", vote_id=vid())
    assert classes.vote(code, asha.learner_id, second.poll_id, 1, "anything typed", vote_id=vid())


def test_a_learner_may_change_their_vote_the_latest_counts_all_are_kept(room, db):
    classes, code, secret, (asha, ravi, _) = room
    poll = classes.pose(code, secret, QUESTION)
    for answer in ("c + h", "a + i", "h + a"):
        assert classes.vote(code, asha.learner_id, poll.poll_id, 1, answer, vote_id=vid())
    classes.vote(code, ravi.learner_id, poll.poll_id, 1, "a + i", vote_id=vid())
    tally = classes.tally(code, poll.poll_id, 1)
    assert (tally.answered, tally.counts) == (2, {"a + i": 1, "h + a": 1})
    assert classes.my_vote(code, asha.learner_id, poll.poll_id, 1) == "h + a"  # shown again after a reload
    assert classes.my_vote(code, room[3][2].learner_id, poll.poll_id, 1) is None
    with pytest.raises(UnknownLearner):  # another class's learner reads nothing here
        classes.my_vote(code, "someone-elses-id", poll.poll_id, 1)
    assert count(db, "SELECT COUNT(*) FROM votes WHERE learner_id = ?", (asha.learner_id,)) == 3


def test_a_vote_sent_twice_is_stored_once(room, db):
    classes, code, secret, (asha, *_) = room
    poll = classes.pose(code, secret, QUESTION)
    vote_id = vid()
    assert classes.vote(code, asha.learner_id, poll.poll_id, 1, "c + h", vote_id=vote_id) is True
    assert classes.vote(code, asha.learner_id, poll.poll_id, 1, "c + h", vote_id=vote_id) is False
    classes.show(code, secret)  # a reconnect after the round closed: still "already stored", not an error
    assert classes.vote(code, asha.learner_id, poll.poll_id, 1, "c + h", vote_id=vote_id) is False
    assert count(db, "SELECT COUNT(*) FROM votes WHERE vote_id = ?", (vote_id,)) == 1
    assert classes.tally(code, poll.poll_id, 1).counts == {"c + h": 1}


def test_votes_are_bounded_and_must_be_a_choice(room):
    classes, code, secret, (asha, *_) = room
    poll = classes.pose(code, secret, QUESTION)
    for answer in ("d + e", "", "x" * 201, None):
        with pytest.raises(BadInput):
            classes.vote(code, asha.learner_id, poll.poll_id, 1, answer, vote_id=vid())
    for vote_id in ("short", "x" * 65, "has space in it", None):
        with pytest.raises(BadInput):
            classes.vote(code, asha.learner_id, poll.poll_id, 1, "c + h", vote_id=vote_id)
    with pytest.raises(UnknownLearner):
        classes.vote(code, "not-a-learner-of-this-class", poll.poll_id, 1, "c + h", vote_id=vid())
    typed = classes.pose(code, secret, {**QUESTION, "choices": None})
    assert classes.vote(code, asha.learner_id, typed.poll_id, 1, "x" * 200, vote_id=vid())
    assert classes.tally(code, typed.poll_id, 1).counts == {"x" * 200: 1}


def test_a_class_its_polls_and_each_learners_votes_and_answers_are_bounded(room, monkeypatch):
    """Bounds by design (small here, to test them quickly): a class's learners and polls, a learner's votes in
    a round, answers to one question and questions answered. Beyond one, a BadInput says which."""
    classes, code, secret, (asha, ravi, _) = room
    for name, value in (("MAX_LEARNERS", 4), ("MAX_POLLS", 2), ("MAX_VOTES", 3), ("MAX_ATTEMPTS", 2),
                        ("MAX_QUESTIONS", 2)):
        monkeypatch.setattr(f"lessons.classroom.checks.{name}", value)
    classes.join(code, "Fourth", client="4")
    with pytest.raises(BadInput, match="full"):
        classes.join(code, "Fifth", client="5")
    classes.pose(code, secret, QUESTION)
    poll = classes.pose(code, secret, QUESTION)
    with pytest.raises(BadInput, match="at most 2 questions"):
        classes.pose(code, secret, QUESTION)
    for answer in ("c + h", "h + a", "a + i"):
        assert classes.vote(code, asha.learner_id, poll.poll_id, 1, answer, vote_id=vid())
    with pytest.raises(BadInput, match="your last vote counts"):
        classes.vote(code, asha.learner_id, poll.poll_id, 1, "c + h", vote_id=vid())
    assert classes.vote(code, ravi.learner_id, poll.poll_id, 1, "c + h", vote_id=vid())  # others still vote
    assert classes.tally(code, poll.poll_id, 1).counts == {"a + i": 1, "c + h": 1}
    assert [classes.record_answer(code, asha.learner_id, "q1", g, False) for g in ("1", "2")] == [1, 2]
    with pytest.raises(BadInput, match="answers to one question"):
        classes.record_answer(code, asha.learner_id, "q1", "3", True)
    classes.record_answer(code, asha.learner_id, "q2", "1", True)
    with pytest.raises(BadInput, match="at most 2 questions are kept"):
        classes.record_answer(code, asha.learner_id, "q3", "1", True)
    assert classes.record_answer(code, asha.learner_id, "q2", "2", True) == 2  # a retry of a kept one still is


def test_a_learner_cannot_vote_in_another_class(classes):
    one, two = classes.start("One"), classes.start("Two")
    asha = classes.join(one.code, "Asha", client="a")
    poll = classes.pose(two.code, two.teacher_secret, QUESTION)
    with pytest.raises(UnknownLearner):
        classes.vote(two.code, asha.learner_id, poll.poll_id, 1, "c + h", vote_id=vid())
    with pytest.raises(VotingClosed):
        classes.vote(one.code, asha.learner_id, poll.poll_id, 1, "c + h", vote_id=vid())
    with pytest.raises(NoPoll):
        classes.tally(one.code, poll.poll_id, 1)


def test_a_poll_id_or_round_no_poll_has_is_refused_before_any_query(room):
    classes, code, secret, (asha, *_) = room
    poll = classes.pose(code, secret, QUESTION)
    for poll_id, rnd in ((12345, 1), (None, 1), ("x" * 10_000, 1), (poll.poll_id, 10**30), (poll.poll_id, 0),
                         (poll.poll_id, True), (poll.poll_id, "1"), (poll.poll_id + "'--", 1)):
        with pytest.raises(NoPoll):
            classes.tally(code, poll_id, rnd)
        with pytest.raises(VotingClosed):
            classes.vote(code, asha.learner_id, poll_id, rnd, "c + h", vote_id=vid())
    for poll_id in (12345, ["a"], "nope-nope-nope"):
        with pytest.raises(NoPoll):
            classes.tallies(code, poll_id)
    assert classes.tally(code, poll.poll_id, 1).answered == 0


@pytest.mark.parametrize("question", [
    {**QUESTION, "prompt": "x" * 5000},
    {**QUESTION, "id": ""},
    {key: value for key, value in QUESTION.items() if key != "id"},
    {**QUESTION, "choices": ["a", "a"]},
    {**QUESTION, "choices": "a, b"},
    {**QUESTION, "where": float("nan")},
    {**QUESTION, "extra": object()},
    {**QUESTION, "where": "https://elsewhere.example/"},
    {**QUESTION, "where": "//elsewhere.example/"},
    {**QUESTION, "where": "javascript:alert(1)"},
    ["not", "a", "dict"],
])
def test_a_posed_question_is_plain_bounded_json(room, question):
    classes, code, secret, _ = room
    with pytest.raises(BadInput):
        classes.pose(code, secret, question)
    assert classes.current(code) is None


def test_every_teacher_action_needs_the_secret_and_a_wrong_code_looks_the_same(room):
    classes, code, secret, _ = room
    classes.pose(code, secret, QUESTION)
    other = next(c for c in ("ABCDEF", "GHJKMN") if c != code)
    actions = [lambda c, s: classes.pose(c, s, QUESTION), classes.show, classes.vote_again,
               lambda c, s: classes.reveal(c, s, "c + h"), classes.close_poll, classes.dashboard,
               lambda c, s: classes.end(c, s or "")]  # end(code) alone is the command line's (no secret)
    messages = set()
    for action in actions:
        for c, s in ((code, "wrong"), (code, ""), (other, secret), (code, None), (code, secret + "x" * 500)):
            with pytest.raises(NotTeacher) as caught:
                action(c, s)
            messages.add(str(caught.value))
    assert len(messages) == 1
    assert classes.current(code).phase == "open" and classes.info(code).title == "Week 3"


def test_a_teacher_step_without_a_poll_says_so(room):
    classes, code, secret, _ = room
    for step in (classes.show, classes.vote_again):
        with pytest.raises(NoPoll):
            step(code, secret)


# -- answers, dashboard, end, purge ------------------------------------------------------------------------------


def test_answers_first_counts_retries_kept_and_restored_on_another_device(room):
    classes, code, _, (asha, ravi, _) = room
    assert classes.record_answer(code, asha.learner_id, "lesson:bpe:q1", "h + a", False) == 1
    assert classes.record_answer(code, asha.learner_id, "lesson:bpe:q1", "c + h", True) == 2
    assert classes.record_answer(code, asha.learner_id, "lesson:bpe:q0", "12", True) == 1
    again = classes.resume(code, asha.resume_code, client="phone")
    got = [(a.question_key, a.guess, a.right, a.attempt) for a in classes.answers(code, again.learner_id)]
    assert got == [("lesson:bpe:q0", "12", True, 1), ("lesson:bpe:q1", "h + a", False, 1),
                   ("lesson:bpe:q1", "c + h", True, 2)]
    assert classes.answers(code, ravi.learner_id) == []
    for bad in (("k" * 301, "x", True), ("k", "x" * 2001, True), ("k", "x", "yes"), ("k\x00", "x", True)):
        with pytest.raises(BadInput):
            classes.record_answer(code, ravi.learner_id, *bad)


def test_dashboard_on_a_small_class_by_hand(room):
    classes, code, secret, (asha, ravi, meera) = room
    # q1: Asha right; Ravi wrong "7" then right; Meera wrong "7".  q2: Asha wrong "b", Ravi wrong "c".
    classes.record_answer(code, asha.learner_id, "q1", "5", True)
    classes.record_answer(code, ravi.learner_id, "q1", "7", False)
    classes.record_answer(code, ravi.learner_id, "q1", "5", True)
    classes.record_answer(code, meera.learner_id, "q1", "7", False)
    classes.record_answer(code, asha.learner_id, "q2", "b", False)
    classes.record_answer(code, ravi.learner_id, "q2", "c", False)
    poll = classes.pose(code, secret, QUESTION)
    classes.vote(code, asha.learner_id, poll.poll_id, 1, "h + a", vote_id=vid())
    board = classes.dashboard(code, secret)
    assert board.joined == 3 and board.title == "Week 3"
    q0, q1, q2 = board.questions  # the poll's question first (its key sorts first), not revealed: not judged yet
    assert (q0.question_key, q0.answered, q0.pending, q0.prompt) == (QUESTION["id"], 0, 1, QUESTION["prompt"])
    assert (q1.question_key, q1.answered, q1.right_first, q1.percent_right, q1.wrong) == ("q1", 3, 1, 33.3, [("7", 2)])
    assert (q2.answered, q2.right_first, q2.percent_right, q2.wrong) == (2, 0, 0.0, [("b", 1), ("c", 1)])
    assert [(p.name, p.answered, p.right) for p in board.learners] == [("Asha", 3, 1), ("Ravi", 2, 0),
                                                                       ("Meera", 1, 0)]
    assert [(p.question_id, [t.counts for t in p.rounds]) for p in board.polls] == [(QUESTION["id"],
                                                                                     [{"h + a": 1}])]
    assert classes.report_rows(code, secret) == [["name", "answered", "right first try", QUESTION["id"], "q1", "q2"],
                                                 ["Asha", 3, 1, "answered", "right", "wrong"],
                                                 ["Ravi", 2, 0, "", "wrong", "wrong"], ["Meera", 1, 0, "", "wrong", ""]]


def test_every_vote_is_judged_and_kept_at_reveal_whatever_the_browsers_do(room):
    """A learner who voted and closed the tab before Reveal is counted: the teacher's Reveal judges every answer of
    every round (the lab's rule, given as ``judge``) and keeps each voter's first answer, so the tally, the
    dashboard and both CSVs agree. The first answer is the last vote of the first round they voted in."""
    classes, code, secret, (asha, ravi, meera) = room
    poll = classes.pose(code, secret, QUESTION)
    classes.vote(code, asha.learner_id, poll.poll_id, 1, "c + h", vote_id=vid())
    classes.vote(code, asha.learner_id, poll.poll_id, 1, "h + a", vote_id=vid())  # changed her mind in round 1
    classes.vote(code, ravi.learner_id, poll.poll_id, 1, "a + i", vote_id=vid())
    classes.show(code, secret)
    classes.vote_again(code, secret)
    classes.vote(code, ravi.learner_id, poll.poll_id, 2, "h + a", vote_id=vid())  # right in round 2
    classes.vote(code, meera.learner_id, poll.poll_id, 2, "c + h", vote_id=vid())  # voted only in round 2
    judged = []
    revealed = classes.reveal(code, secret, "h + a", "Seen 4 times.",
                              judge=lambda answer: judged.append(answer) or answer in ("h + a", "c + h"))
    assert sorted(judged) == ["a + i", "c + h", "h + a"]  # each answer judged once, for everyone
    assert revealed.verdicts == {"a + i": False, "c + h": True, "h + a": True}  # (c + h "ties", by this judge)
    kept = {lr.name: [(a.question_key, a.guess, a.right, a.attempt) for a in classes.answers(code, lr.learner_id)]
            for lr in (asha, ravi, meera)}
    assert kept == {"Asha": [(QUESTION["id"], "h + a", True, 1)], "Ravi": [(QUESTION["id"], "a + i", False, 1)],
                    "Meera": [(QUESTION["id"], "c + h", True, 1)]}
    board = classes.dashboard(code, secret)
    (q,) = board.questions
    assert (q.answered, q.right_first, q.pending, q.wrong) == (3, 2, 0, [("a + i", 1)])
    assert [(t.round, t.answered, t.counts) for t in board.polls[0].rounds] == [
        (1, 2, {"a + i": 1, "h + a": 1}), (2, 2, {"c + h": 1, "h + a": 1})]
    assert board.polls[0].wrong == [[("a + i", 1)], []]
    assert [(r.name, r.round, r.first, r.first_right, r.final, r.final_right, r.sent) for r in board.answers] == [
        ("Asha", 1, "c + h", True, "h + a", True, 2), ("Ravi", 1, "a + i", False, "a + i", False, 1),
        ("Ravi", 2, "h + a", True, "h + a", True, 1), ("Meera", 2, "c + h", True, "c + h", True, 1)]
    assert classes.reveal(code, secret, "h + a").verdicts == revealed.verdicts  # again: nothing changes
    assert len(classes.answers(code, asha.learner_id)) == 1


def test_two_learners_of_one_name_keep_their_own_answers_in_the_json(classes):
    """Names are not unique in a class (two Ashas is an ordinary room): the report's JSON gives each learner, by
    their number in the order they joined, their own answers, never the other's too."""
    started = classes.start("Week 3")
    first, second = (classes.join(started.code, "Asha", client=c) for c in ("a", "b"))
    classes.record_answer(started.code, first.learner_id, "q1", "5", True)
    classes.record_answer(started.code, second.learner_id, "q1", "7", False)
    learners = as_json(classes.dashboard(started.code, started.teacher_secret))["learners"]
    assert [(p["learner"], p["name"], p["answered"], p["right"], [(a["question"], a["first"]) for a in p["answers"]])
            for p in learners] == [(1, "Asha", 1, 1, [("q1", "5")]), (2, "Asha", 1, 0, [("q1", "7")])]


def test_a_poll_answer_to_a_question_answered_before_is_a_retry(room):
    classes, code, secret, (asha, *_) = room
    classes.record_answer(code, asha.learner_id, QUESTION["id"], "a + i", False)  # on the Lessons page, before
    poll = classes.pose(code, secret, QUESTION)
    classes.vote(code, asha.learner_id, poll.poll_id, 1, "h + a", vote_id=vid())
    classes.reveal(code, secret, "h + a")  # no judge: right when it is the truth as written
    assert [(a.guess, a.right, a.attempt) for a in classes.answers(code, asha.learner_id)] == [
        ("a + i", False, 1), ("h + a", True, 2)]
    assert classes.dashboard(code, secret).learners[0].right == 0  # the first answer counts


def test_end_closes_the_class_deletes_the_names_and_keeps_the_answers_for_the_report(room):
    classes, code, secret, (asha, *_) = room
    classes.record_answer(code, asha.learner_id, "q1", "5", True)
    assert classes.end(code, secret) is True
    assert classes.end(code) is False
    for closed in (lambda: classes.join(code, "Late", client="late"), lambda: classes.current(code),
                   lambda: classes.info(code),
                   lambda: classes.record_answer(code, asha.learner_id, "q2", "x", True),
                   lambda: classes.pose(code, secret, QUESTION)):
        with pytest.raises(ClassUnavailable):
            closed()
    report = classes.report(code)
    assert [p.name for p in report.learners] == ["Learner 1", "Learner 2", "Learner 3"]  # in the order they joined
    assert [(p.answered, p.right) for p in report.learners] == [(1, 1), (0, 0), (0, 0)]
    with classes.db.transaction(write=False) as tx:
        assert not {"Asha", "Ravi", "Meera"} & {row[0] for row in tx.rows("SELECT name FROM learners")}
    assert classes.is_teacher(code, secret)


def test_starting_a_class_purges_the_expired_ones(classes):
    old = classes.start("Yesterday's", expires_days=1, now=T0)
    classes.join(old.code, "Asha", client="a", now=T0)
    assert classes.report(old.code).joined == 1
    classes.start("Today's", now=T0 + timedelta(days=1))
    with pytest.raises(ClassUnavailable):
        classes.report(old.code)


def test_purge_deletes_expired_classes_with_every_name(classes, db):
    old = classes.start("Last term", expires_days=30, now=T0)
    live = classes.start("This term", now=T0 + timedelta(days=20))
    learner = classes.join(old.code, "Asha Verma", client="a", now=T0)
    classes.join(live.code, "Ravi", client="r", now=T0 + timedelta(days=20))
    assert classes.purge(now=T0 + timedelta(days=29)) == 0
    with db.transaction() as tx:  # votes and answers are written in real time: a class expiring later holds them
        tx.execute("UPDATE classes SET expires_at = expires_at + 1000000000")
    poll = classes.pose(old.code, old.teacher_secret, QUESTION)
    classes.vote(old.code, learner.learner_id, poll.poll_id, 1, "c + h", vote_id=vid())
    classes.record_answer(old.code, learner.learner_id, "q1", "5", True)
    with db.transaction() as tx:
        tx.execute("UPDATE classes SET expires_at = expires_at - 1000000000")
    assert classes.purge(now=T0 + timedelta(days=30)) == 1
    with db.transaction() as tx:
        assert [row[0] for row in tx.rows("SELECT name FROM learners")] == ["Ravi"]
        for table in ("polls", "votes", "answers"):
            assert tx.one(f"SELECT COUNT(*) FROM {table}")[0] == 0, table
    with pytest.raises(ClassUnavailable):
        classes.report(old.code)
    assert classes.info(live.code, now=T0 + timedelta(days=30)).joined == 1


ODD = [None, 0, -1, 10**30, True, 1.5, [], {}, b"bytes", "", "x" * 100_000, "\x00", "\ud800", "A\u202eB", "'; --"]


def test_odd_values_in_any_argument_are_a_friendly_class_error(room):
    """Every public method, each argument in turn given odd values (wrong types, huge numbers, NUL, a lone
    surrogate, a very long text): either it works or it raises a ClassError (its message safe to show), never
    a database's or Python's own error; and the class still works afterwards."""
    classes, code, secret, (asha, *_) = room
    poll = classes.pose(code, secret, {**QUESTION, "choices": None})
    calls = {
        "join": (classes.join, [code, "Ravi"], {"client": "odd"}),
        "resume": (classes.resume, [code, asha.resume_code], {"client": "odd2"}),
        "is_teacher": (classes.is_teacher, [code, secret], {}),
        "info": (classes.info, [code], {}),
        "version": (classes.version, [code], {}),
        "current": (classes.current, [code], {}),
        "vote": (classes.vote, [code, asha.learner_id, poll.poll_id, 1, "c + h"], {"vote_id": vid()}),
        "tally": (classes.tally, [code, poll.poll_id, 1], {}),
        "my_vote": (classes.my_vote, [code, asha.learner_id, poll.poll_id, 1], {}),
        "tallies": (classes.tallies, [code, poll.poll_id], {}),
        "record_answer": (classes.record_answer, [code, asha.learner_id, "q1", "5", True], {}),
        "answers": (classes.answers, [code, asha.learner_id], {}),
        "dashboard": (classes.dashboard, [code, secret], {}),
        "report_rows": (classes.report_rows, [code, secret], {}),
        "reveal": (classes.reveal, [code, secret, "c + h", ""], {}),
        "show": (classes.show, [code, secret], {}),
    }
    unexpected = []
    for name, (method, args, kwargs) in calls.items():
        for index in range(len(args)):
            for odd in ODD:
                tried = [*args]
                tried[index] = odd
                try:
                    method(*tried, **kwargs)
                except ClassError:
                    pass
                except Exception as exc:  # noqa: BLE001 (collected and reported below)
                    unexpected.append(f"{name} argument {index} = {odd!r:.30}: {type(exc).__name__}: {exc!s:.80}")
    assert unexpected == []
    assert classes.current(code).poll_id == poll.poll_id and classes.version(code) > 0


def test_a_teachers_browser_key_acts_for_the_teacher_until_forgotten(classes, db):
    """A reload is the teacher again with the browser's own key, never the secret: the key does what the secret
    does for its class only, is kept only hashed, and stops working when that browser leaves teacher mode."""
    started = classes.start("Week 3")
    other = classes.start("Another")
    key = classes.teacher_browser(started.code, started.teacher_secret)
    assert key != started.teacher_secret and len(key) >= 40
    assert classes.is_teacher(started.code, key) and not classes.is_teacher(other.code, key)
    assert classes.pose(started.code, key, QUESTION).round == 1
    assert classes.learners(started.code, key) == []
    with db.transaction() as tx:
        kept = [row[0] for row in tx.rows("SELECT key_hash FROM teacher_browsers")]
    assert kept == [hashlib.sha256(key.encode()).hexdigest()]  # only its hash
    second = classes.teacher_browser(started.code, key)  # the projector, from the laptop's browser
    classes.forget_browser(started.code, key)
    assert not classes.is_teacher(started.code, key)
    assert classes.is_teacher(started.code, second) and classes.is_teacher(started.code, started.teacher_secret)
    with pytest.raises(NotTeacher):
        classes.teacher_browser(started.code, key)
    classes.end(started.code)
    assert classes.about(started.code, secret=second).open is False  # the report of an ended class: still theirs
