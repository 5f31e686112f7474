"""Reading a paper sheet back: the photo, the review of what was read, its rows saved as hands."""
