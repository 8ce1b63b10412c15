-- Issue 23: a class's stage moves with every teacher's step (a question posed, answers shown, a new round, the
-- answer revealed, the question closed, the class ended), not with a vote or a join: a learner's screen is
-- rerun when it moves (ui.push), while the teacher's screen follows the version (every change).

ALTER TABLE classes ADD COLUMN stage BIGINT NOT NULL DEFAULT 0;
