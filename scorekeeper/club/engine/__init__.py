"""The club engine, pure Python: standings, statistics and ratings over finished matches (no web, no database).

Everything reads digests (digest.py): what one finished match left behind, as plain JSON-able data.
The modules are digest, standings, stats and ratings, over one module per game (barbu, kozyol, hearts)
collected in registry.FIGURES, and seating (an evening's tables, from counts of who met whom); each is
imported by name (``from scorekeeper.club.engine import ratings`` gives the module), so nothing here
shadows them with the functions they hold.
"""
