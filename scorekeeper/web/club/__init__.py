"""The club in the browser: its pages, the admin's forms, what a phone remembers, its spreadsheets."""
