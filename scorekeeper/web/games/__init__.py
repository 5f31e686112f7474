"""One game in the browser: each game's forms and page record, collected in registry.py."""
