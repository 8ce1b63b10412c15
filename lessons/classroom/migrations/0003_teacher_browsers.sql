-- Issue 23: a teacher who reloads gets back to teacher mode without the command line and without the secret in
-- the address bar. Each browser that opened a teacher link keeps a key of its own (in a cookie): 256 random bits,
-- kept here only as their SHA-256, good for that class until the teacher leaves teacher mode in that browser or
-- the class is deleted. The class's secret itself is never kept in a browser.

CREATE TABLE teacher_browsers (
    key_hash TEXT PRIMARY KEY,
    code     TEXT NOT NULL REFERENCES classes (code) ON DELETE CASCADE,
    made_at  BIGINT NOT NULL
);

CREATE INDEX teacher_browsers_by_class ON teacher_browsers (code);
