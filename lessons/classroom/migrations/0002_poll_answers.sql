-- Issue 23: nothing a learner answered in a poll is lost. At Reveal the teacher's screen judges every answer the
-- class gave (by the lab's own rules) and the poll keeps the verdicts (JSON: answer -> true/false); each learner's
-- first answer to the poll becomes one of their answers at once, marked with the poll it came from (poll_id is
-- NULL for an answer given on a page of the lab). Nothing waits for the learners' own browsers.

ALTER TABLE polls ADD COLUMN verdicts TEXT;

ALTER TABLE answers ADD COLUMN poll_id TEXT;
