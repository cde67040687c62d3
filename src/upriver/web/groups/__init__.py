"""Groups and their league: members, invite links, seasons, the group's games (web tables played for
the group and keeper evenings attached to it), standings and ratings, and the group page.

Parts: the pure league (:mod:`.league`: a game's result from its record, the standings), the
store (:mod:`.store`, over :mod:`upriver.database`), and the routes (:mod:`.routes`). A member is an
account (:mod:`upriver.web.accounts`). docs/groups.md says what a group sees, and the API.
"""
