"""The rules of pokerbot's games: pure, synchronous, no I/O, no clock, no randomness of its own."""
