"""Score sheets on paper: the sheet pages and PDFs, their cache, each game's sheet lines, the charts."""
