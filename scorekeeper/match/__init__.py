"""The match core: load, replay, record, correct and undo hands; receipts of writes; backups."""
