"""The rules pages: each game's rules, with the numbers taken from the engines."""
