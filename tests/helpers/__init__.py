"""What the tests share, by domain: forms, the JSON API, matches, clubs, PDF sheets, servers, pages.

Fixtures and pytest hooks live in conftest.py; everything else a test module needs from another is here.
"""
