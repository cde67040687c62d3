"""Reinforcement learning on the game: observation encoding, PettingZoo and Gymnasium environments.

:mod:`upriver.rl.encoding` and :mod:`upriver.rl.common` need only numpy;
:mod:`upriver.rl.aec` (PettingZoo, also reached as :mod:`upriver.pettingzoo`) and
:mod:`upriver.rl.gym` (Gymnasium) need the ``rl`` extra, as does :mod:`upriver.rl.vector` (many
tables stepped in the compiled kernel), so they are not imported here.
"""
