"""The engine's test suite. A package so that ``from tests.oracle import train_textbook`` works."""
