"""The clock pages: a read-only web page per tournament, for a TV in the room, served by the bot's aiohttp."""
