"""External agents: any program speaking paiju's JSON-lines protocol plays a seat (``shared/specs/protocol.md``).

Named ``ext:<command>`` wherever paiju takes an agent name, e.g. ``ext:python examples/ext_random_bot.py``.
Each ``ExternalAgent`` runs its own process (so one per seat), started on the first ``begin`` and kept for
every later game (``start`` and ``end`` delimit them) until ``close``, or until a fault stops it: the next
``begin`` then starts a new one. Evaluations keep one agent per seat for all their games
(``paiju.eval.seating``). The command is split like a POSIX shell would (``shlex``) and run directly; only a
command using shell syntax (pipes, redirections, ``$VAR``, ``~``, globs) is run through the shell.

Messages, one compact JSON object per line (protocol v1):

==========  ====================================================================  ==========================
``start``   ``{"v":1,"type":"start","game":G,"seat":S,"rules":{...}}``            no answer
``act``     ``{"v":1,"type":"act","game":G,"seat":S,"phase":P,"obs":{...},...}``  ``{"action": A}``, one line
``end``     ``{"v":1,"type":"end","game":G,"seat":S,"result":{...}}``             no answer
==========  ====================================================================  ==========================

``act`` also carries ``"legal":[...]``, the JSON forms of the legal actions; the answer's ``A`` must equal
one of them (compared as JSON values: ``true`` is not ``1``). Under DouDizhu's 癞子 rules (``"laizi": true`` in
``start``'s rules) the obs adds ``"wild"`` (the wild ranks' letters, ``""`` until there is a landlord), and a play
whose wild cards stand for other ranks is written with what it stands for, in ``legal`` and ``history`` alike:
``"5558=5555"`` (``paiju.games.doudizhu.wild``).

Output limits: the program's output is read in chunks of ``READ_CHUNK`` bytes, never a line at a time, so
that what it writes cannot take paiju's memory. An answer line may hold ``ANSWER_LIMIT`` bytes (1 MiB); a
longer line, or more than that written and not yet asked for, is a fault. Of its standard error only the
last ``STDERR_TAIL_BYTES`` bytes (4 KiB) are kept, whose last lines go into fault messages; what it writes
there is logged at DEBUG level under this module's logger, a chunk at a time.

Time limit: each request (writing it, and for ``act`` reading the answer) must complete within
``timeout`` seconds; when not given, the environment variable ``PAIJU_EXT_TIMEOUT`` (seconds, read when
the agent is built) or else 10 s.

Seeds: the agent's ``seed`` (evaluations derive one per seat and game, ``paiju.eval.seeds``) reaches the program
twice: in its environment as ``PAIJU_AGENT_SEED``, the seed when the process started, and in every ``start``
message as ``"seed": N``, the seed of the game beginning, which may change between games while the process
keeps running. A program that seeds its choices from each new game's ``seed`` (the first ``start``, or the
first after an ``end``) plays every game as the agent in-process would, however its games are spread over
processes — ``paiju bot AGENT`` (``paiju.agents.bridge``) plays any paiju agent over this protocol. Without a
seed neither is sent.

Faults — an answer that is not UTF-8 JSON (nested too deeply or holding a number too long for Python to
read counts as not JSON), not an object with ``"action"``, or an action not in ``legal``; no answer in time;
an answer line over ``ANSWER_LIMIT``; output nobody asked for (an extra line, seen by the next request); the
process exiting, crashing or closing its pipes — raise ``AgentError`` naming the agent, the seat, the request
(type, phase, move) and what went wrong, quoting the first 200 characters of a bad answer, and the tail of
its standard error (with the exit code when the process died). The process is stopped; no action is ever
made up.
"""

from __future__ import annotations

import json
import logging
import math
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Sequence
from typing import IO, Any

from paiju.core.agent import Agent
from paiju.core.errors import AgentError, PaijuError
from paiju.core.game import JSON, Action
from paiju.core.registry import load_game

PROTOCOL_VERSION = 1
DEFAULT_TIMEOUT = 10.0
TIMEOUT_VARIABLE = "PAIJU_EXT_TIMEOUT"
SEED_VARIABLE = "PAIJU_AGENT_SEED"
"""Set in the program's environment to the seat's agent seed, so a seeded program (``paiju bot``) plays as the
same agent in-process would."""
QUOTE_LIMIT = 200
"""Characters of a bad answer quoted in a fault message."""
READ_CHUNK = 1 << 16
"""Bytes read at a time from the program's output and standard error."""
ANSWER_LIMIT = 1 << 20
"""Bytes an answer line may hold, its newline included (1 MiB), and the most output that may wait unread."""
STDERR_TAIL_BYTES = 1 << 12
"""Bytes kept of the end of the program's standard error (4 KiB)."""
STDERR_TAIL_LINES = 10
STDERR_TAIL_CHARS = 1000
"""Lines, then characters, of the end of the program's standard error quoted in a fault message."""
EXIT_GRACE = 1.0
"""Seconds a program gets to exit by itself (after its input closes, or after its output ended)."""
SHELL_SYNTAX = frozenset("|&;<>()$`*?~")
"""Characters that only mean something to a shell: a command containing one is run through the shell."""

log = logging.getLogger(__name__)


class _Fault(Exception):
    """What the program did wrong; ``died`` when its process has ended (so its exit code is worth waiting for)."""

    def __init__(self, message: str, died: bool = False) -> None:
        super().__init__(message)
        self.died = died


def timeout_from_environment() -> float:
    """``PAIJU_EXT_TIMEOUT`` in seconds, or ``DEFAULT_TIMEOUT`` when it is not set."""
    value = os.environ.get(TIMEOUT_VARIABLE)
    if value is None:
        return DEFAULT_TIMEOUT
    try:
        return float(value)
    except ValueError:
        raise PaijuError(f"{TIMEOUT_VARIABLE} must be a number of seconds, got {value!r}") from None


def quote(text: str) -> str:
    """The first ``QUOTE_LIMIT`` characters of ``text``, as a Python literal, marked when cut."""
    cut = text[:QUOTE_LIMIT]
    return repr(cut) + (f" (first {QUOTE_LIMIT} of {len(text)} characters)" if len(text) > QUOTE_LIMIT else "")


def canonical_json(value: JSON) -> str:
    """One spelling per JSON value, so that answers compare as values (``1`` and ``true`` differ)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def encode_message(message: dict[str, JSON]) -> bytes:
    """A protocol line: compact JSON, UTF-8, newline-terminated."""
    return (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")


def move_number(obs: dict[str, JSON]) -> int:
    """1 + the actions an observation shows so far (``bids``, ``history`` and the ``trick`` in progress)."""
    return 1 + sum(len(obs[key]) for key in ("bids", "history", "trick") if isinstance(obs.get(key), list))


def choose(line: bytes, legal: Sequence[Action], legal_json: Sequence[JSON]) -> Action:
    """The element of ``legal`` whose JSON form equals the answer's ``"action"``; a ``_Fault`` otherwise."""
    wanted = _answered_action(line)
    for action, value in zip(legal, legal_json, strict=True):
        if canonical_json(value) == wanted:
            return action
    raise _Fault(f"answered an action not in legal ({len(legal)} legal actions): {quote(wanted)}")


def _answered_action(line: bytes) -> str:
    """The canonical JSON of the answer's ``"action"``; a ``_Fault`` for an answer Python cannot read as JSON."""
    try:
        text = line.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError:
        raise _Fault(f"answered bytes that are not UTF-8: {line[:QUOTE_LIMIT]!r}") from None
    try:
        answer = json.loads(text)
        if not isinstance(answer, dict) or "action" not in answer:
            raise _Fault(f'answered JSON that is not an object with "action": {quote(text)}')
        return canonical_json(answer["action"])
    except json.JSONDecodeError as error:
        raise _Fault(f"answered something that is not JSON ({error.msg}): {quote(text)}") from None
    except RecursionError:
        raise _Fault(f"answered JSON nested too deeply to read: {quote(text)}") from None
    except ValueError:  # the only other ValueError of json: an integer longer than Python converts
        raise _Fault(f"answered a number longer than {sys.get_int_max_str_digits()} digits: {quote(text)}") from None


class _Output:
    """The program's output, read by a thread: its lines, queued in the batches they were read in.

    Lines written at once arrive at once, so a line nobody asked for is seen as soon as the answer before it.
    The batches end with ``None`` when the output ends, or with a ``_Fault`` when it breaks ``ANSWER_LIMIT``
    (a longer line, or more than that waiting unread): reading then stops, so the output held stays bounded.
    """

    def __init__(self) -> None:
        self.batches: queue.Queue[list[bytes | _Fault | None]] = queue.Queue()
        self.unread: deque[bytes | _Fault | None] = deque()
        self.waiting = 0
        """Bytes queued and not yet taken."""
        self.lock = threading.Lock()

    def read(self, stream: IO[bytes]) -> None:
        """Queue the lines of ``stream`` until it ends or breaks the limit (runs in the reader thread)."""
        pending = b""
        fault: _Fault | None = None
        try:
            while fault is None and (chunk := stream.read1(READ_CHUNK)):  # type: ignore[attr-defined]
                *lines, pending = (pending + chunk).split(b"\n")
                fault = self._queue(lines, len(pending))
        except (OSError, ValueError):  # the pipe was closed under us while stopping
            pass
        finally:
            self._put([pending, None] if pending and fault is None else [fault])

    def _queue(self, lines: list[bytes], pending: int) -> _Fault | None:
        """Queue the complete ``lines`` (newlines removed) up to the first too long for ``ANSWER_LIMIT``; the
        ``_Fault`` when there is one, when the incomplete line (``pending`` bytes) is already too long, or when
        more than ``ANSWER_LIMIT`` bytes wait unread."""
        complete: list[bytes | _Fault | None] = [line + b"\n" for line in lines]
        kept = next((index for index, line in enumerate(lines) if len(line) >= ANSWER_LIMIT), len(lines))
        waiting = self._put(complete[:kept])
        if kept < len(lines) or pending >= ANSWER_LIMIT:
            return _Fault(f"wrote a line longer than the answer limit of {ANSWER_LIMIT} bytes")
        if waiting + pending > ANSWER_LIMIT:
            return _Fault(f"wrote more than {ANSWER_LIMIT} bytes nobody asked for")
        return None

    def _put(self, batch: list[bytes | _Fault | None]) -> int:
        """Queue ``batch`` unless it is empty; the bytes then waiting unread."""
        with self.lock:
            self.waiting += sum(len(item) for item in batch if isinstance(item, bytes))
            waiting = self.waiting
        if batch:
            self.batches.put(batch)
        return waiting

    def empty(self) -> bool:
        """Whether nothing is waiting to be taken."""
        return not self.unread and self.batches.empty()

    def take(self, timeout: float) -> bytes | None:
        """The next line (None: the output ended), raising the ``_Fault`` that stopped the reading;
        ``queue.Empty`` after ``timeout`` seconds without one."""
        if not self.unread:
            batch = self.batches.get(timeout=max(timeout, 0.0))
            with self.lock:
                self.waiting -= sum(len(item) for item in batch if isinstance(item, bytes))
            self.unread.extend(batch)
        item = self.unread.popleft()
        if isinstance(item, _Fault):
            raise item
        return item


class _Tail:
    """The end of the program's standard error: its last ``STDERR_TAIL_BYTES`` bytes, read by a thread."""

    def __init__(self) -> None:
        self.kept = bytearray()
        self.lock = threading.Lock()

    def read(self, stream: IO[bytes], command: str) -> None:
        """Keep the end of ``stream`` until it ends, logging each chunk (runs in the reader thread)."""
        try:
            while chunk := stream.read1(READ_CHUNK):  # type: ignore[attr-defined]
                with self.lock:
                    self.kept += chunk
                    del self.kept[:-STDERR_TAIL_BYTES]
                if log.isEnabledFor(logging.DEBUG):
                    log.debug("%s: %s", command, chunk.decode("utf-8", "replace").rstrip("\r\n"))
        except (OSError, ValueError):
            pass

    def ending(self) -> str:
        """The last ``STDERR_TAIL_LINES`` lines kept, at most ``STDERR_TAIL_CHARS`` characters."""
        with self.lock:
            text = self.kept.decode("utf-8", "replace")
        lines = text.replace("\r\n", "\n").rstrip("\n").split("\n")
        return "\n".join(lines[-STDERR_TAIL_LINES:])[-STDERR_TAIL_CHARS:]


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill the program and everything it started (its process group, on POSIX)."""
    try:
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except (ProcessLookupError, PermissionError):
        pass


class _Program:
    """A running program: a pipe to write to, a thread queueing its output lines, one keeping its stderr's end.

    Every blocking step has a time limit, so a program that stops reading or answering cannot hang paiju.
    """

    def __init__(self, command: str, argv: list[str] | None, limit: float, seed: int | None) -> None:
        self.limit = limit
        """Seconds each request may take, as named in fault messages."""
        environment = None if seed is None else {**os.environ, SEED_VARIABLE: str(seed)}
        try:
            self.process = subprocess.Popen(
                command if argv is None else argv, shell=argv is None, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=os.name == "posix",
                env=environment)
        except (OSError, ValueError) as error:
            raise _Fault(f"could not be started: {error}", died=True) from None
        assert self.process.stdin and self.process.stdout and self.process.stderr
        self.stdin = self.process.stdin
        self.output = _Output()
        self.stderr_tail = _Tail()
        self.readers = [
            threading.Thread(target=self.output.read, args=(self.process.stdout,), daemon=True),
            threading.Thread(target=self.stderr_tail.read, args=(self.process.stderr, command), daemon=True),
        ]
        for reader in self.readers:
            reader.start()
        self.writer: threading.Thread | None = None
        # A program nobody closed still dies with its agent, or at the latest when paiju exits.
        self._finalizer = weakref.finalize(self, _kill, self.process)

    def send(self, line: bytes, timeout: float) -> None:
        """Write one line; a fault if the pipe is broken or the program does not take it within ``timeout`` s."""
        failures: list[Exception] = []

        def write() -> None:
            try:
                self.stdin.write(line)
                self.stdin.flush()
            except (OSError, ValueError) as error:
                failures.append(error)

        self.writer = threading.Thread(target=write, daemon=True)
        self.writer.start()
        self.writer.join(max(timeout, 0.0))
        if self.writer.is_alive():
            raise _Fault(f"did not read its input within {self.limit:g} s")
        if failures:
            raise _Fault(f"closed its input ({type(failures[0]).__name__}: {failures[0]})", died=True)

    def check_silent(self) -> None:
        """A fault if the program wrote anything since its last answer, or ended its output."""
        if self.output.empty():
            return
        line = self.output.take(0.0)
        if line is None:
            raise _Fault("had ended its output before the request", died=True)
        raise _Fault(f"wrote output nobody asked for: {quote(line.decode('utf-8', 'replace').rstrip())}")

    def receive(self, timeout: float) -> bytes:
        """The program's next line, waiting at most ``timeout`` seconds."""
        try:
            line = self.output.take(timeout)
        except queue.Empty:
            raise _Fault(f"gave no answer within {self.limit:g} s") from None
        if line is None:
            raise _Fault("ended its output without answering", died=True)
        return line

    def exit_code(self, wait: float) -> int | None:
        """The exit code, waiting up to ``wait`` seconds for the process to end; None while it runs."""
        try:
            return self.process.wait(wait)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, grace: float) -> None:
        """Close the program's input, let it exit within ``grace`` seconds, then kill whatever is left."""
        stuck = self.writer is not None and self.writer.is_alive()
        if grace > 0 and not stuck:  # closing a pipe another thread is blocked writing to would block too
            self._close(self.stdin)
            self.exit_code(grace)
        _kill(self.process)
        self.process.wait()
        for thread in [self.writer, *self.readers]:
            if thread is not None:
                thread.join(EXIT_GRACE)
        for stream in (self.stdin, self.process.stdout, self.process.stderr):
            self._close(stream)
        self._finalizer.detach()

    @staticmethod
    def _close(stream: IO[bytes] | None) -> None:
        try:
            if stream is not None:
                stream.close()
        except (OSError, ValueError):  # unflushed bytes to a program that is gone
            pass


def describe_exit(code: int | None) -> str:
    """How the process ended, for a fault message."""
    if code is None:
        return ""
    if code < 0:
        return f"; it was killed by signal {-code}"
    return f"; it exited with code {code}"


class ExternalAgent(Agent):
    """A seat played by an outside program over the external agent protocol v1 (see the module docstring).

    ``timeout`` (seconds per request) defaults to ``PAIJU_EXT_TIMEOUT`` or 10 s; ``name`` (for messages
    and results) to ``ext:<command>``. ``seed``, when given, is passed to the program as ``PAIJU_AGENT_SEED``
    and in each ``start``; set it between games to give the next game its own seed.
    """

    def __init__(self, command: str, timeout: float | None = None, name: str | None = None,
                 seed: int | None = None) -> None:
        if not command.strip():
            raise PaijuError("an external agent needs a command: ext:<command>")
        self.timeout = timeout_from_environment() if timeout is None else timeout
        if not (math.isfinite(self.timeout) and self.timeout > 0):
            raise PaijuError(f"the external agent time limit must be a positive number of seconds, "
                             f"got {self.timeout!r}")
        self.command = command
        self.seed = seed
        self.name = name or f"ext:{command}"
        self._argv = None if SHELL_SYNTAX & set(command) else self._split(command)
        self._program: _Program | None = None
        self._game: str | None = None
        self._seat = 0
        self._starts = 0
        self._stopped_by: str | None = None

    @staticmethod
    def _split(command: str) -> list[str]:
        try:
            return shlex.split(command)
        except ValueError as error:
            raise PaijuError(f"cannot split the external agent command {command!r}: {error}") from None

    @property
    def running(self) -> bool:
        """Whether this agent's process is running."""
        return self._program is not None and self._program.process.poll() is None

    def begin(self, game: str, seat: int, rules: dict[str, JSON]) -> None:
        """Start the process if it is not running, then send ``start`` (with ``seed`` when the agent has one)."""
        self._game, self._seat = game, seat
        self._starts += 1
        request = f"start request #{self._starts} (game {game!r})"
        message = {"v": PROTOCOL_VERSION, "type": "start", "game": game, "seat": seat, "rules": rules}
        if self.seed is not None:
            message["seed"] = self.seed
        try:
            if self._program is None:
                self._program = _Program(self.command, self._argv, self.timeout, self.seed)
                self._stopped_by = None
            self._program.send(encode_message(message), self.timeout)
        except _Fault as fault:
            raise self._failure(seat, request, fault) from None

    def act(self, observation: Any, legal: Sequence[Action]) -> Action:
        """Send ``act`` and return the element of ``legal`` the program names."""
        seat = observation.seat
        obs = observation.to_json()
        request = (f"act request (phase {observation.phase!r}, move {move_number(obs)}, "
                   f"after start #{self._starts})")
        if self._program is None or self._game is None:
            why = f"the process was stopped after: {self._stopped_by}" if self._stopped_by else "no game has begun"
            raise AgentError(self.name, seat, f"{request}: no process to ask ({why})")
        game = load_game(self._game)
        legal_json = [game.action_to_json(action) for action in legal]
        message = {"v": PROTOCOL_VERSION, "type": "act", "game": self._game, "seat": seat,
                   "phase": observation.phase, "obs": obs, "legal": legal_json}
        deadline = time.monotonic() + self.timeout
        try:
            self._program.check_silent()
            self._program.send(encode_message(message), deadline - time.monotonic())
            return choose(self._program.receive(deadline - time.monotonic()), legal, legal_json)
        except _Fault as fault:
            raise self._failure(seat, request, fault) from None

    def finish(self, result: dict[str, JSON]) -> None:
        """Send ``end`` with the result (payoffs by seat)."""
        if self._program is None or self._game is None:
            return
        message = {"v": PROTOCOL_VERSION, "type": "end", "game": self._game, "seat": self._seat, "result": result}
        try:
            self._program.send(encode_message(message), self.timeout)
        except _Fault as fault:
            raise self._failure(self._seat, f"end request after start #{self._starts}", fault) from None

    def close(self) -> None:
        """Close the process's input, give it a moment to exit, then kill it; safe to call again."""
        if self._program is not None:
            self._program.stop(EXIT_GRACE)
            self._program = None

    def _failure(self, seat: int, request: str, fault: _Fault) -> AgentError:
        """Stop the process and describe the fault: request, what went wrong, exit code, stderr tail."""
        message = f"{request}: the program {fault}"
        program = self._program
        if program is not None:
            self._program = None
            message += describe_exit(program.exit_code(EXIT_GRACE if fault.died else 0.0))
            program.stop(0.0)
            ending = program.stderr_tail.ending()
            if ending:
                message += f"; its stderr ends with:\n{ending}"
        self._stopped_by = message
        return AgentError(self.name, seat, message)


__all__ = ["ExternalAgent", "timeout_from_environment"]
