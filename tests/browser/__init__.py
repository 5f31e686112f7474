"""Real-browser tests: a package, so its conftest never shadows tests/conftest.py."""
