"""The club: its store side (service, roster, results, figures) over the pure engine in engine/."""
