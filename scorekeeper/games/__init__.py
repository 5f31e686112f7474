"""The rules of each game, pure Python: no web, no database."""

from ..refusals import Reason
from . import barbu, hearts, kozyol
from .base import Game, InvalidHand

GAMES: dict[str, Game] = {game.slug: game for game in (barbu.GAME, kozyol.GAME, hearts.GAME)}

__all__ = ["GAMES", "Game", "InvalidHand", "Reason"]
