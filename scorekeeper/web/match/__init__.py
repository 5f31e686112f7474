"""A casual match at the table: its pages, hand entry, the outbox's answers, the table view, history."""
