"""Scorekeeper: keeps score at a real card table (Barbu, Kozyol, Cancellation Hearts)."""

__version__ = "0.1.0"
