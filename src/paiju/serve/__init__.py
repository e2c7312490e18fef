"""paiju arena: play DouDizhu, GuanDan and Gongzhu in a browser, against built-in bots, people and network bots.

``paiju serve --host 127.0.0.1 --port 8000 --db PATH --move-timeout SECONDS`` runs
``create_app(ServeSettings(...))`` under uvicorn (``paiju.serve.cli.serve``). Finished games are stored in
one SQLite file; tables in progress live in memory.

HTTP (JSON; refusals are ``{"detail": "message naming the problem"}``)
=====================================================================

==========================================  ==========================================================
``GET /``, ``GET /static/...``              the lobby page and the front end's files
``GET /api/games``                          ``{"games": {name: {"num_players", "agents", "default_rules",
                                            "variants": {name: {"label", "rules", "default_rules", "agents",
                                            ...}}}}}``: each rule variant's options and the agents that play it
``POST /api/tables``                        ``{"game", "rules"?, "seed"?, "seats": ["human" | "open" | AGENT]}``
                                            → 201 ``{"table_id", "game", "seats": [{"seat", "kind", "agent"?,
                                            "token"?}]}``, a token for each ``human`` seat; 400 unknown game,
                                            bad rules, wrong seat count, unknown agent (or one that does not
                                            play the rules' variant), a seed with open seats; 422 wrong
                                            shape; 429 this client's limits; 503 server full
``POST /api/tables/{id}/seats/{seat}``      reserve an open seat → ``{"token"}``; 404 unknown table or seat;
                                            409 seat taken, not open, or the game begun; 429 client limits
``GET /api/tables``                         the lobby: ``{"tables": [{"table_id", "game", "ruleset", "status", "seats":
                                            [{"seat", "kind", "agent"?, "connected", "reserved"?}],
                                            "created", "bot_delay", "watchable"}]}``, newest first
``GET /api/tables/{id}/frames?since=N``     watch a table of bots alone while it plays: ``{"game", "seats",
                                            "status", "record_id", "frames": [frames N..]}``, frames shaped
                                            as a replay's, every hand face up (made lazily from the table's
                                            moves: ``replay_frames.LiveFrames``); ``record_id`` once stored.
                                            403 a table with a person, open or network seat (its hands stay
                                            hidden; its replay opens when it ends); 404 unknown table; 400
                                            ``since`` past the frames made; 422 ``since`` not an int >= 0
``GET /api/records?limit=50``               finished games, newest first: ``[{"record_id", "game", "ruleset",
                                            "seats", "result", "finished"}]`` (limit 1-500)
``GET /api/records/{id}``                   the paiju JSON record
``GET /api/records/{id}/frames``            replay frames, every hand face up (``paiju.serve.replay_frames``;
                                            made once per record off the event loop, then cached)
==========================================  ==========================================================

Any body over ``max_bytes`` (64 KiB) gets 413 unread (``paiju.serve.limits``).

Agents offered as bots are the built-in agents (``paiju.agents.agent_names``) except ``ext:``: the server
never starts a program named over the network. Rule variants (``paiju.serve.variants``: 癞子 DouDizhu, rules
``{"laizi": true}``) are offered with the agents that play them, and their games are stored and rated under the
variant's name (``ruleset``: ``laizi``; ``null`` for a game's classic rules). A table's status goes ``waiting``
(until every human and open seat's token holder has connected once) → ``playing`` → ``finished`` or ``aborted``.

Seat websocket: ``/ws/tables/{id}?token=TOKEN``
===============================================

One JSON object per text message; protocol v1 (``shared/specs/protocol.md``) plus the arena's messages
(``paiju.serve.protocol`` spells them all). Server to client:

- ``welcome`` ``{"game", "seat", "table_id", "seats", "rules"}`` on every connection, then (once the game
  has begun) the current ``update``, and the pending ``act`` or the ``end``: a reconnect resumes the seat.
- ``start`` ``{"game", "seat", "rules"}`` at each new game or GuanDan round.
- ``update`` ``{"game", "seat", "phase", "obs", "to_act", "last", "deal"}`` after ``start`` and after
  every action; ``obs`` is this seat's observation only, ``last`` ``{"seat", "action"}`` the latest action
  as this seat may see it: ``"action": null`` while the rules keep it sealed (a GuanDan tribute or return
  card, until every gift of its phase is chosen; ``State.action_seen_by``). The first update of a new deal
  carries in ``last`` the action that ended the previous deal (``null`` at the very start).
- ``act`` ``{"game", "seat", "phase", "obs", "legal", "deadline"}``: the seat's turn, ``deadline`` seconds.
- ``end`` ``{"game", "seat", "result", "record_id"}``: the game is over and stored.
- ``error`` ``{"message"}``: the client's last message was refused and nothing changed; or the table was
  aborted (then the socket is closed with code 1011).
- ``explain`` ``{"agent", "candidates": [{"action", "score"}]}``: the top 8 candidates, best first.
- ``pong``.

Client to server: ``{"action": A}`` (A equal, as JSON, to an element of the pending ``act``'s ``legal``),
``{"type": "explain", "agent": NAME}`` (only while this seat is to act; the named built-in agent sees only
this seat's observation), ``{"type": "ping"}``. Anything else (not JSON, not an object, an unknown type,
an illegal action, out of turn, no act pending, an unknown agent, a binary message, over 16 KiB) is
answered with ``error``.

GuanDan competition platform: ``ws://HOST:PORT/game/{name}`` (``paiju.serve.platform``).

Ladder
======

Registered bots queue on ``ws://HOST:PORT/ws/ladder`` and are seated at rated tables, with each other or with
house bots (``paiju.serve.ladder``); accounts, the ladder's standings and each bot's page are under
``/api/bots``, ``/api/ladder`` and ``/ladder`` (``paiju.serve.ladder_api``, ``paiju.serve.accounts``). A ladder
seat plays the seat websocket above; a ladder table is never abandoned (its game is stored and rated) and has
the ladder's time control.

Time limits
===========

A person or network bot has ``move_timeout`` seconds (default 60) per move, counted from the ``act``
(reconnecting does not restart it); then the server plays the default action (pass when legal, else the
first legal action in the engine's order), logs a warning naming table, seat and action, and the record
keeps it as a normal action. When that happens with none of the table's people and network bots
connected, the table is abandoned instead: ``aborted``, nothing stored. A built-in bot waits ``bot_delay``
seconds, then chooses in a worker thread.

Storage
=======

``GameStore`` (``paiju.serve.store``): one row per finished game, written in one transaction, so a killed
server loses at most the games in progress. A table whose game fails is ``aborted``: logged, nothing
stored, no other table affected.

Security
========

- Each human or reserved open seat has its own secret token (``secrets.token_urlsafe``, compared in
  constant time); a connection without a valid token is closed with code 1008 and a reason. A newer
  connection with the same token replaces (closes) the older one. Tokens appear only in the reply that
  creates them; the lobby shows none, and the server log shows ``token=[redacted]``.
- Deals: a table without a chosen seed is dealt from 128 random bits (``secrets``); a chosen seed is
  refused for a table with open seats, as its creator would know the joiners' hands. Bots are seeded
  from a hash of the table's seed and their seat (``paiju.eval.seeds.derive_seed``).
- Every client is sent its own seat's observation only, never another hand; a crash message names no
  internal detail (the log has it). Only a table of bots alone can be watched while it plays, every hand
  face up (nobody at it could profit); any other table's hands are seen only in its replay, once it ended.
- Limits (``ServeSettings``, ``paiju serve --help``): client messages of at most 16 KiB (uvicorn refuses
  websocket messages over 1 MiB), deeply nested or over-long numbers refused with ``error``; one explain
  at a time per seat; tables in progress at most 256 in all and 8 per client address, reserved open
  seats at most 8 per address, 120 creations and reservations a minute per address (checked atomically:
  ``paiju.serve.lobby``); seat tokens unused for 5 minutes are given up; a seat's outbox holds at most 256
  unsent messages and a message must be taken within 10 s, else the client is disconnected (1008:
  ``paiju.serve.seats``); ended tables are kept in memory 10 minutes, at most 200 of them; the database
  keeps every finished game unless ``--keep-games N`` keeps the N newest.
- Ladder bots' keys are stored hashed, returned only by the call that makes them, and redacted from the log
  (``pk-[redacted]``); admin calls need ``--admin-token``.
- The server has no accounts for people and no TLS: run it on loopback, or behind a reverse proxy that adds them.
"""
