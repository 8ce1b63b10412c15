-- Issue 23: a teacher's own questions, kept with the class. Each is the [[exercise]] table a lesson file would
-- hold (JSON: id, prompt, the engine operation that computes its answer, explain; never the answer itself),
-- named by what it asks, so the class's own lesson (lessons.own) is made of them.

CREATE TABLE class_questions (
    code        TEXT NOT NULL REFERENCES classes (code) ON DELETE CASCADE,
    exercise_id TEXT NOT NULL,
    exercise    TEXT NOT NULL,
    made_at     BIGINT NOT NULL,
    seq         BIGINT NOT NULL,
    PRIMARY KEY (code, exercise_id)
);
