"""Which passwords unlock a cached encrypted document, kept as salted verifiers.

docs/design.md, invariant 12: a password unlocks one call. A decrypted document in the cache is
served only to a call whose password is proven to unlock it, so each cache entry of an
encrypted file carries a :class:`Keyring`: a random salt and, for each password seen to open
the file, a key derived from it (PBKDF2-HMAC-SHA256). A call's password is derived the same
way and compared with each verifier in constant time (``hmac.compare_digest``). The password
itself is never stored.

Work factor: whoever can read this process's memory holds the encrypted file too, whose own
password check (an MD5 or SHA-2 chain of 50 to a few hundred rounds, ISO 32000 7.6.4) costs a
guesser far less than :data:`ITERATIONS` rounds of PBKDF2, so the verifiers are never the
cheaper way to guess a password; a few milliseconds per call is the price.

A file may have several passwords that open it (a user and an owner password, and, since the
PDF check truncates and re-encodes them, other spellings): a password the keyring does not
know is checked by the caller against the file itself and, if it opens it, remembered here —
at most :data:`MAX_VERIFIERS` of them, the oldest forgotten first.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import threading

#: PBKDF2-HMAC-SHA256 rounds per verifier (about 4 ms with OpenSSL; see the module docstring).
ITERATIONS = 20_000
SALT_BYTES = 16
#: Passwords remembered per document; a password past them is checked against the file again.
MAX_VERIFIERS = 8
_BLOCK = 64  # SHA-256's block size, for the HMAC fallback
_DIGEST = 32


class Keyring:
    """The verifiers of the passwords known to unlock one document."""

    def __init__(self) -> None:
        self._salt = os.urandom(SALT_BYTES)
        self._verifiers: list[bytes] = []
        # Passwords the file refused, kept the same way: a caller who retries one (or gives
        # none, again and again) is answered without opening the file each time.
        self._refused: list[bytes] = []
        self._lock = threading.Lock()

    def verdict(self, password: str | None) -> bool | None:
        """Whether ``password`` (``None`` is the empty password) was seen to unlock the
        document (``True``), seen to be refused by it (``False``), or not seen (``None``).
        Every verifier is compared, in constant time each."""
        candidate = derive(password, self._salt)
        with self._lock:
            verifiers = list(self._verifiers)
            refused = list(self._refused)
        found = False
        for verifier in verifiers:
            found |= hmac.compare_digest(candidate, verifier)
        if found:
            return True
        wrong = False
        for verifier in refused:
            wrong |= hmac.compare_digest(candidate, verifier)
        return False if wrong else None

    def proves(self, password: str | None) -> bool:
        """Whether ``password`` is one seen to unlock the document."""
        return self.verdict(password) is True

    def remember(self, password: str | None, opens: bool = True) -> None:
        """Record ``password`` as one that unlocks the document (the caller has proven it),
        or, with ``opens=False``, as one the file refused."""
        verifier = derive(password, self._salt)
        with self._lock:
            kept = self._verifiers if opens else self._refused
            if any(hmac.compare_digest(verifier, known) for known in kept):
                return
            kept.append(verifier)
            del kept[:-MAX_VERIFIERS]

    def __len__(self) -> int:
        with self._lock:
            return len(self._verifiers)

    def __repr__(self) -> str:
        return f"Keyring({len(self)} verifiers)"


def derive(password: str | None, salt: bytes, iterations: int = ITERATIONS) -> bytes:
    """The verifier of ``password`` under ``salt``. Lone surrogates are kept
    (``surrogatepass``), so every string has one verifier and none raises."""
    secret = (password or "").encode("utf-8", "surrogatepass")
    pbkdf2 = getattr(hashlib, "pbkdf2_hmac", None)
    if pbkdf2 is not None:
        derived: bytes = pbkdf2("sha256", secret, salt, iterations)
        return derived
    return pbkdf2_sha256(secret, salt, iterations)


def pbkdf2_sha256(secret: bytes, salt: bytes, iterations: int) -> bytes:
    """PBKDF2-HMAC-SHA256 (RFC 8018), one block, without OpenSSL: CPython 3.12+ offers
    ``hashlib.pbkdf2_hmac`` only with OpenSSL, which Pyodide loads only as a separate package."""
    if len(secret) > _BLOCK:
        secret = hashlib.sha256(secret).digest()
    secret = secret.ljust(_BLOCK, b"\x00")
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in secret))
    outer = hashlib.sha256(bytes(b ^ 0x5C for b in secret))

    def prf(message: bytes) -> bytes:
        i = inner.copy()
        i.update(message)
        o = outer.copy()
        o.update(i.digest())
        return o.digest()

    block = prf(salt + (1).to_bytes(4, "big"))
    total = int.from_bytes(block, "big")
    for _ in range(iterations - 1):
        block = prf(block)
        total ^= int.from_bytes(block, "big")
    return total.to_bytes(_DIGEST, "big")
