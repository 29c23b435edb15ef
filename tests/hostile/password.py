"""Encrypted files opened with the right password, a wrong one, none, the owner's, and edge
cases of the PDF's own check (docs/design.md, invariant 12), on both engine paths. The child gives
the attack's password to every call on one shared context, so the right-password attacks also
read the decrypted document from the cache call after call; calls with different passwords on
one cache are in ``tests/test_passwords.py``."""

from __future__ import annotations

from pdfbuilder import PdfBuilder, encrypt

from hostile import attack

SENTENCE = "Hidden behind a password"
REFUSED = frozenset({"encrypted"})


def _document() -> bytes:
    """Two pages of text with an image and an outline: every operation has work to do."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(8, 8, flate=True)
    for n in (1, 2):
        content = b"BT /F1 12 Tf 72 700 Td (%s, page %d) Tj ET" % (SENTENCE.encode(), n)
        content += b" q 50 0 0 50 72 500 cm /Im1 Do Q"
        b.add_page(content, {"Font": {"F1": font}, "XObject": {"Im1": image}})
    return b.build()


@attack(
    "password", "wrong-rc4", password="wrong", allowed_errors=REFUSED, must_not_show=(SENTENCE,)
)
def wrong_rc4() -> bytes:
    return encrypt(_document(), "right", "owner", algorithm="RC4-128")


@attack(
    "password", "wrong-aes256", password="wrong", allowed_errors=REFUSED, must_not_show=(SENTENCE,)
)
def wrong_aes256() -> bytes:
    return encrypt(_document(), "right", "owner", algorithm="AES-256")


@attack("password", "none-given", allowed_errors=REFUSED, must_not_show=(SENTENCE,))
def none_given() -> bytes:
    return encrypt(_document(), "right", "owner", algorithm="AES-128")


@attack("password", "right-rc4", password="right", must_show=(SENTENCE,))
def right_rc4() -> bytes:
    return encrypt(_document(), "right", "owner", algorithm="RC4-128")


@attack("password", "right-aes256", password="right", must_show=(SENTENCE,))
def right_aes256() -> bytes:
    return encrypt(_document(), "right", "owner", algorithm="AES-256")


@attack("password", "owner-aes256", password="owner", must_show=(SENTENCE,))
def owner_aes256() -> bytes:
    return encrypt(_document(), "right", "owner", algorithm="AES-256")


@attack("password", "empty-user-password", must_show=(SENTENCE,))
def empty_user_password() -> bytes:
    return encrypt(_document(), "", "owner", algorithm="RC4-40")


#: RC4 checks only a password's first 32 bytes: another spelling with the same 32 opens it.
_LONG = "p" * 32


@attack("password", "rc4-truncated", password=_LONG + "-and-more", must_show=(SENTENCE,))
def rc4_truncated() -> bytes:
    return encrypt(_document(), _LONG, "owner", algorithm="RC4-128")


@attack(
    "password",
    "lone-surrogate",
    password="\ud800",
    allowed_errors=REFUSED | {"invalid_argument"},
    must_not_show=(SENTENCE,),
)
def lone_surrogate() -> bytes:
    return encrypt(_document(), "right", "owner", algorithm="AES-256")
