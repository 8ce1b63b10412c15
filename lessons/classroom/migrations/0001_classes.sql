-- Classes, their learners, the teacher's polls and votes, and the learners' answers.
-- Plain SQL that SQLite and PostgreSQL both read. Times are whole seconds since 1970 (UTC);
-- ids are random text made by the lab, so no table needs an auto-increment (which the two spell differently).
-- Statements are separated by ';' at the end of a line; no ';' inside a statement.

CREATE TABLE classes (
    code        TEXT PRIMARY KEY,
    title       TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    closed_at   BIGINT,
    poll_id     TEXT,
    version     BIGINT NOT NULL DEFAULT 0
);

CREATE INDEX classes_by_expiry ON classes (expires_at);

-- seq: the class's version when the learner joined (the order they joined in).
CREATE TABLE learners (
    learner_id  TEXT PRIMARY KEY,
    code        TEXT NOT NULL REFERENCES classes (code) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    resume_code TEXT NOT NULL,
    seq         BIGINT NOT NULL,
    joined_at   BIGINT NOT NULL,
    UNIQUE (code, resume_code)
);

CREATE TABLE polls (
    poll_id     TEXT PRIMARY KEY,
    code        TEXT NOT NULL REFERENCES classes (code) ON DELETE CASCADE,
    question_id TEXT NOT NULL,
    question    TEXT NOT NULL,
    round       INTEGER NOT NULL,
    phase       TEXT NOT NULL CHECK (phase IN ('open', 'shown', 'revealed')),
    truth       TEXT,
    explanation TEXT NOT NULL DEFAULT '',
    posed_at    BIGINT NOT NULL
);

CREATE INDEX polls_by_class ON polls (code, posed_at);

-- One row per vote sent: vote_id is made by the learner's screen, so a vote sent twice is stored once.
-- seq is the class's version when the vote was counted: the latest vote of a learner in a round wins.
CREATE TABLE votes (
    vote_id    TEXT PRIMARY KEY,
    poll_id    TEXT NOT NULL REFERENCES polls (poll_id) ON DELETE CASCADE,
    learner_id TEXT NOT NULL REFERENCES learners (learner_id) ON DELETE CASCADE,
    round      INTEGER NOT NULL,
    answer     TEXT NOT NULL,
    seq        BIGINT NOT NULL,
    voted_at   BIGINT NOT NULL
);

CREATE INDEX votes_by_round ON votes (poll_id, round, learner_id, seq);

-- A learner's answers to the lab's questions: attempt 1 is the first answer (the one that counts).
CREATE TABLE answers (
    learner_id   TEXT NOT NULL REFERENCES learners (learner_id) ON DELETE CASCADE,
    code         TEXT NOT NULL REFERENCES classes (code) ON DELETE CASCADE,
    question_key TEXT NOT NULL,
    attempt      INTEGER NOT NULL,
    guess        TEXT NOT NULL,
    is_right     INTEGER NOT NULL,
    answered_at  BIGINT NOT NULL,
    PRIMARY KEY (learner_id, question_key, attempt)
);

CREATE INDEX answers_by_class ON answers (code, question_key);

-- Join attempts per client and minute, shared by every replica: the rate limit on guessing codes.
CREATE TABLE join_attempts (
    client   TEXT NOT NULL,
    minute   BIGINT NOT NULL,
    attempts INTEGER NOT NULL,
    PRIMARY KEY (client, minute)
);
