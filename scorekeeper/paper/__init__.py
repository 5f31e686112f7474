"""Paper sheets a phone reads back: their layout, the photo's reading, and each row fitted to the game's rules."""
