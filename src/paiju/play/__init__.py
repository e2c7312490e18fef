"""Playing against bots in the terminal."""
