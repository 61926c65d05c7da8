"""Project and game configuration: `aids.yaml` at the project root (project.py), `games/<game>/game.yaml` per
game (game.py)."""
from .game import GAME, GAME_FILE, MAX_LINE, Edition, Game, GlossaryTerm, Print, check_language, read_game
from .project import DATE_STYLES, PRINT, PROJECT, PROJECT_FILE, Project, find_root, read_project

__all__ = ["DATE_STYLES", "GAME", "GAME_FILE", "MAX_LINE", "PRINT", "PROJECT", "PROJECT_FILE", "Edition", "Game",
           "GlossaryTerm", "Print", "Project", "check_language", "find_root", "read_game", "read_project"]
