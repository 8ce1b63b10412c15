"""The engine's test suite (a package, so helpers import as ``tests.apptest_helpers``)."""
