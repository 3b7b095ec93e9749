"""Player accounts behind the leaderboard (docs/web-api.md, "Accounts").

An account is a unique name and a password. Names are compared by their *keys*: the name
in Unicode NFKC, case-folded, then every way of reading it with look-alike characters
replaced by their ASCII counterparts (the ``confusables`` library's normalisation over
the Unicode confusables data). Two names collide when their key sets meet, so "Ann",
"ann" and "Аnn" (Cyrillic А) are one name. The stored keys carry a unique constraint, so
two sign-ups racing for one name cannot both win. Names that read as a computer player
("Computer", the level and agent names of ``agents.registry``) are reserved.

Passwords are hashed with Argon2id (``argon2-cffi``); only the hash is stored. A signed-in
person carries a session cookie signed with the server's secret (``itsdangerous``), see
``SessionSigner``.

Storage: ``AccountStore`` is the protocol, ``MemoryAccountStore`` and ``SqlAccountStore``
(the ``accounts``, ``account_names`` and ``server_keys`` tables of ``models``) its two
implementations; each table store has one as ``store.accounts``.
"""

from __future__ import annotations

import asyncio
import functools
import math
import re
import secrets
import threading
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from confusables import normalize  # type: ignore[import-untyped]
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..agents.registry import AGENT_NAMES
from ..engine.fold import fold
from ..engine.record import UNPRINTABLE
from .errors import ErrorCode, Problem
from .models import AccountNameRow, AccountRow, ServerKeyRow
from .store import now

T = TypeVar("T")

NAME_MIN, NAME_MAX = 2, 24
"""Length of an account name in characters (surrounding spaces removed)."""
PASSWORD_MIN, PASSWORD_MAX = 8, 256
"""Length of a password in characters."""
MAX_KEYS = 256
"""Most readings (keys) of one name; a name with more look-alike characters is refused."""
RESERVED_WORDS = frozenset({"computer"} | {n for n in AGENT_NAMES if n.isalpha()})
"""Words no account name may contain: ``computer`` and the one-word agent and level names."""
RESERVED_WHOLE = frozenset(re.sub(r"[^a-z0-9]", "", n) for n in AGENT_NAMES)
"""Agent names that no account name may spell (without punctuation), such as ``mctsv1``."""
SESSION_COOKIE = "coloretto_session"
"""The session cookie's name."""
SESSION_DAYS = 30
"""A session cookie's life in days (the signature carries its time)."""

_hasher = PasswordHasher()


@dataclass(frozen=True)
class Account:
    """A signed-up person: ``id`` (positive integer, from the store), ``name`` (as chosen
    at sign-up; shown on seats and on the leaderboard) and ``session_epoch`` (moved on by
    each log-out; a session cookie of an earlier epoch is no session)."""

    id: int
    name: str
    session_epoch: int = 0


# ----- names ----------------------------------------------------------------------------------
def display_name(name: Any) -> str:
    """The account name to store: ``name`` in NFC without surrounding spaces.

    Raises:
        Problem: ``bad_name`` (not a string, not 2 to 24 characters, control characters).
    """
    if not isinstance(name, str):
        raise Problem(ErrorCode.BAD_NAME, "name must be a string")
    text = unicodedata.normalize("NFC", name.strip())
    if not NAME_MIN <= len(text) <= NAME_MAX:
        raise Problem(
            ErrorCode.BAD_NAME, f"an account name has {NAME_MIN} to {NAME_MAX} characters"
        )
    if not text.isprintable():
        raise Problem(ErrorCode.BAD_NAME, f"a name {UNPRINTABLE}")
    return text


def name_keys(name: str) -> list[str]:
    """Every key of ``name``: its fold (``engine.fold``: NFKC, case folding), then each reading of its look-alike
    characters as ASCII (``confusables.normalize``). ``name_keys("Аnn") == ["ann"]``.

    Raises:
        Problem: ``bad_name``: the name has more than ``MAX_KEYS`` readings (many characters
            such as 1, l, I and | that look alike) or is empty after folding.
    """
    folded = fold(name)
    if not folded:
        raise Problem(ErrorCode.BAD_NAME, "the name is empty")
    # the readings multiply character by character: count them before listing them
    readings = math.prod(len(normalize(ch, prioritize_alpha=True)) for ch in folded)
    if readings > MAX_KEYS:
        raise Problem(
            ErrorCode.BAD_NAME,
            "the name has too many characters that look alike (such as 1, l and |)",
        )
    keys = normalize(folded, prioritize_alpha=True)
    return sorted({fold(k) for k in keys} | {folded})


def check_reserved(keys: list[str]) -> None:
    """Refuse names that read as a computer player: a word ``computer`` or an agent or level
    name (``easy``, ``medium``, ``hard``, ``expert``, ``random``, ``mcts``...), in any reading.

    Raises:
        Problem: ``bad_name``.
    """
    for key in keys:
        words = re.findall(r"[^\W_]+", key)
        hit = next((w for w in words if w in RESERVED_WORDS), None)
        if hit is None and "".join(words) in RESERVED_WHOLE:
            hit = "".join(words)
        if hit is not None:
            raise Problem(
                ErrorCode.BAD_NAME, f"names that read as a computer player ({hit!r}) are reserved"
            )


def check_password(password: Any) -> str:
    """A new password: a string of 8 to 256 characters.

    Raises:
        Problem: ``bad_password``.
    """
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Problem(
            ErrorCode.BAD_PASSWORD, f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters"
        )
    return password


def hash_password(password: str) -> str:
    """The Argon2id hash (PHC string, salt included) of ``password``."""
    return _hasher.hash(password)


def verify_password(stored: str, password: str) -> bool:
    """Whether ``password`` matches the Argon2 hash ``stored`` (False for a broken hash)."""
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


@functools.cache
def _dummy_hash() -> str:
    """A hash to verify against when a name is unknown, so that a wrong name takes as long
    as a wrong password (made on first use: hashing costs CPU time at start-up)."""
    return hash_password(secrets.token_urlsafe(16))


# ----- sessions -------------------------------------------------------------------------------
class SessionSigner:
    """Signs and checks session cookies: the value is the account id, its session epoch and
    a random nonce, signed with HMAC (``itsdangerous.URLSafeTimedSerializer``) under the
    server's secret; a value older than ``SESSION_DAYS`` or with a wrong signature is no
    session."""

    def __init__(self, secret: str) -> None:
        """``secret``: at least 32 characters (``config.Settings.session_secret`` or the
        key stored by ``AccountStore.server_secret``).

        Raises:
            ValueError: a shorter secret.
        """
        if len(secret) < 32:
            raise ValueError("the session secret must have at least 32 characters")
        self._s = URLSafeTimedSerializer(secret, salt="coloretto-session")

    def dumps(self, account_id: int, epoch: int = 0) -> str:
        """The cookie value for ``account_id`` at session epoch ``epoch``."""
        return self._s.dumps({"a": account_id, "e": epoch, "n": secrets.token_hex(8)})

    def loads(self, value: str | None) -> tuple[int, int] | None:
        """``(account_id, epoch)`` of a cookie value, or None (missing, forged, expired,
        malformed)."""
        if not value:
            return None
        try:
            data = self._s.loads(value, max_age=SESSION_DAYS * 86400)
        except (BadSignature, ValueError, UnicodeError):
            return None
        if not isinstance(data, dict):
            return None
        account, epoch = data.get("a"), data.get("e")
        if type(account) is not int or account <= 0 or type(epoch) is not int:
            return None
        return account, epoch


# ----- storage --------------------------------------------------------------------------------
class AccountStore(Protocol):
    """Where accounts live (with the games: the table store's database)."""

    async def create(self, name: str, keys: list[str], password_hash: str) -> Account | None:
        """Store a new account; None when one of ``keys`` belongs to an account already
        (nothing stored)."""
        ...

    async def find(self, keys: list[str]) -> tuple[Account, str] | None:
        """The account holding one of ``keys``, with its password hash, or None."""
        ...

    async def get(self, account_id: int) -> Account | None:
        """The account ``account_id``, or None."""
        ...

    async def server_secret(self) -> str:
        """The session-signing secret kept in the store: made (64 random hex digits) on
        first use, the same for every server process sharing the store."""
        ...

    async def end_sessions(self, account_id: int) -> None:
        """Move the account's session epoch on: every session cookie given so far ends."""
        ...


class MemoryAccountStore:
    """``AccountStore`` in this process's memory (thread-safe; see ``store.MemoryTableStore``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._accounts: dict[int, tuple[Account, str]] = {}
        self._keys: dict[str, int] = {}
        self._secret = secrets.token_hex(32)

    async def create(self, name: str, keys: list[str], password_hash: str) -> Account | None:
        """See ``AccountStore.create``."""
        with self._lock:
            if any(k in self._keys for k in keys):
                return None
            account = Account(len(self._accounts) + 1, name)
            self._accounts[account.id] = (account, password_hash)
            for k in keys:
                self._keys[k] = account.id
            return account

    async def find(self, keys: list[str]) -> tuple[Account, str] | None:
        """See ``AccountStore.find``."""
        with self._lock:
            found = next((self._keys[k] for k in keys if k in self._keys), None)
            return None if found is None else self._accounts[found]

    async def get(self, account_id: int) -> Account | None:
        """See ``AccountStore.get``."""
        with self._lock:
            found = self._accounts.get(account_id)
            return None if found is None else found[0]

    async def server_secret(self) -> str:
        """See ``AccountStore.server_secret`` (a new one for every store)."""
        return self._secret

    async def end_sessions(self, account_id: int) -> None:
        """See ``AccountStore.end_sessions``."""
        with self._lock:
            found = self._accounts.get(account_id)
            if found is not None:
                a = found[0]
                self._accounts[account_id] = (Account(a.id, a.name, a.session_epoch + 1), found[1])


class SqlAccountStore:
    """``AccountStore`` on the games' SQL database; ``run`` runs a blocking function on the
    table store's worker threads (``db.SqlTableStore``)."""

    def __init__(self, engine: Engine, run: Callable[..., Awaitable[Any]]) -> None:
        self.engine = engine
        self._run = run

    def _create(self, name: str, keys: list[str], password_hash: str) -> Account | None:
        try:
            with self.engine.begin() as conn:
                account_id = conn.execute(
                    insert(AccountRow)
                    .values(name=name, password_hash=password_hash, created_at=now())
                    .returning(AccountRow.id)
                ).scalar_one()
                conn.execute(
                    insert(AccountNameRow), [{"key": k, "account_id": account_id} for k in keys]
                )
        except IntegrityError:
            return None
        return Account(int(account_id), name)

    def _find(self, keys: list[str]) -> tuple[Account, str] | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(AccountRow.id, AccountRow.name, AccountRow.session_epoch, AccountRow.password_hash)
                .join(AccountNameRow, AccountNameRow.account_id == AccountRow.id)
                .where(AccountNameRow.key.in_(keys))
                .limit(1)
            ).first()
        return None if row is None else (Account(int(row[0]), row[1], int(row[2])), row[3])

    def _get(self, account_id: int) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(AccountRow.id, AccountRow.name, AccountRow.session_epoch).where(AccountRow.id == account_id)
            ).first()
        return None if row is None else Account(int(row[0]), row[1], int(row[2]))

    def _end_sessions(self, account_id: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(AccountRow)
                .where(AccountRow.id == account_id)
                .values(session_epoch=AccountRow.session_epoch + 1)
            )

    def _secret(self) -> str:
        with self.engine.begin() as conn:
            found = conn.execute(
                select(ServerKeyRow.value).where(ServerKeyRow.name == "session")
            ).scalar()
            if found is not None:
                return str(found)
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(ServerKeyRow).values(name="session", value=secrets.token_hex(32))
                )
        except IntegrityError:
            pass  # another server process stored one first: use it
        with self.engine.connect() as conn:
            return str(
                conn.execute(
                    select(ServerKeyRow.value).where(ServerKeyRow.name == "session")
                ).scalar_one()
            )

    async def create(self, name: str, keys: list[str], password_hash: str) -> Account | None:
        """See ``AccountStore.create`` (the unique ``account_names.key`` decides a race)."""
        result: Account | None = await self._run(self._create, name, keys, password_hash)
        return result

    async def find(self, keys: list[str]) -> tuple[Account, str] | None:
        """See ``AccountStore.find``."""
        result: tuple[Account, str] | None = await self._run(self._find, keys)
        return result

    async def get(self, account_id: int) -> Account | None:
        """See ``AccountStore.get``."""
        result: Account | None = await self._run(self._get, account_id)
        return result

    async def server_secret(self) -> str:
        """See ``AccountStore.server_secret``."""
        result: str = await self._run(self._secret)
        return result

    async def end_sessions(self, account_id: int) -> None:
        """See ``AccountStore.end_sessions``."""
        await self._run(self._end_sessions, account_id)


# ----- the service ----------------------------------------------------------------------------
class Accounts:
    """Sign-up, log-in and sessions over an ``AccountStore``.

    ``secret``: the session secret (``Settings.session_secret``); None uses the one kept in
    the store (``AccountStore.server_secret``), read on first use.
    """

    def __init__(self, store: AccountStore, secret: str | None = None) -> None:
        self.store = store
        self._secret = secret
        self._signer: SessionSigner | None = None

    async def signer(self) -> SessionSigner:
        """The session signer (built on first use)."""
        if self._signer is None:
            self._signer = SessionSigner(self._secret or await self.store.server_secret())
        return self._signer

    async def sign_up(self, name: Any, password: Any) -> Account:
        """A new account.

        Raises:
            Problem: ``bad_name`` (see ``display_name``, ``name_keys``, ``check_reserved``),
                ``bad_password``, ``name_taken`` (the name or a look-alike is taken).
        """
        text = display_name(name)
        keys = name_keys(text)
        check_reserved(keys)
        check_password(password)
        account = await self.store.create(
            text, keys, await asyncio.to_thread(hash_password, password)
        )
        if account is None:
            raise Problem(
                ErrorCode.NAME_TAKEN, f"the name {text!r}, or one that looks the same, is taken"
            )
        return account

    async def log_in(self, name: Any, password: Any) -> Account:
        """The account whose name (compared by its keys) and password match.

        Raises:
            Problem: ``bad_login`` (unknown name or wrong password: the same answer).
        """
        if (
            not isinstance(name, str)
            or not isinstance(password, str)
            or len(password) > PASSWORD_MAX
        ):
            raise Problem(ErrorCode.BAD_LOGIN, "wrong name or password")
        try:
            keys = name_keys(name.strip())
        except Problem:
            keys = []
        found = await self.store.find(keys) if keys else None
        stored = found[1] if found is not None else await asyncio.to_thread(_dummy_hash)
        ok = await asyncio.to_thread(verify_password, stored, password)
        if found is None or not ok:
            raise Problem(ErrorCode.BAD_LOGIN, "wrong name or password")
        return found[0]

    async def session_cookie(self, account: Account) -> str:
        """A signed session cookie value for ``account`` (at its current session epoch)."""
        return (await self.signer()).dumps(account.id, account.session_epoch)

    async def from_cookie(self, value: str | None) -> Account | None:
        """The account of a session cookie value, or None (no cookie, forged, expired,
        ended by a log-out, account gone)."""
        found = (await self.signer()).loads(value)
        if found is None:
            return None
        account = await self.store.get(found[0])
        return account if account is not None and account.session_epoch == found[1] else None

    async def log_out(self, value: str | None) -> None:
        """End every session of the account of the cookie ``value`` (nothing when it is no
        session): a copy of the cookie kept elsewhere stops working too."""
        account = await self.from_cookie(value)
        if account is not None:
            await self.store.end_sessions(account.id)
