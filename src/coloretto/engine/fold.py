"""How text typed by people is compared: colour labels of a tally, player names.

Two spellings are the same when they fold to the same string: compatibility-normalised
(Unicode NFKC, so full-width letters and ligatures read as plain letters), case-folded
(``ß`` as ``ss``) and stripped of surrounding white space. Look-alike letters from other
scripts (a Cyrillic ``А`` for a Latin ``A``) are not folded here: the server compares them
with its own table of confusable characters on top of this fold.
"""

from __future__ import annotations

import unicodedata

__all__ = ["fold"]


def fold(text: str) -> str:
    """``text`` as compared: NFKC-normalised, case-folded, stripped.

    >>> fold(" ＧＲＥＥＮ "), fold("Straße"), fold("ﬁsh")
    ('green', 'strasse', 'fish')
    """
    return unicodedata.normalize("NFKC", text).casefold().strip()
