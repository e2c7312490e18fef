"""The games. Importing this package registers each of them with ``paiju.core.registry``."""

from paiju.core.registry import register_game
from paiju.games.doudizhu import DouDizhu
from paiju.games.gongzhu import Gongzhu
from paiju.games.guandan import GuanDan

register_game(DouDizhu())
register_game(Gongzhu())
register_game(GuanDan())
