"""The coach's languages: gettext catalogues (``assistant/locale/<lang>/LC_MESSAGES/patience.mo``).

Messages are looked up by symbolic ids (``tip.tommy.high-pile``, ``coach.follows``), so every player text,
English too, lives in a catalogue and none in code; a missing message is an error in the tests, and at run time
falls back to English, then to the id itself. Placeholders are ``str.format`` fields (``{card}``).
"""

from __future__ import annotations

import gettext
import locale
import os
from functools import lru_cache

from assistant.cards import Card
from assistant.coach.mo import DOMAIN, LOCALE_DIR

LANGS = ("en", "de", "nl", "it")


def default_lang() -> str:
    """The player's language from the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        for part in value.split(":"):
            code = part.split("_")[0].split(".")[0].lower()
            if code in LANGS:
                return code
    try:
        code = (locale.getlocale()[0] or "").split("_")[0].lower()
    except ValueError:
        code = ""
    return code if code in LANGS else "en"


def check_lang(lang: str | None) -> str:
    """``lang`` if supported (None: the default); ValueError naming the choices otherwise."""
    if lang is None:
        return default_lang()
    code = lang.lower()
    if code not in LANGS:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGS)}")
    return code


@lru_cache(maxsize=None)
def catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang``, English behind it for missing messages."""
    fallback = None
    if lang != "en":
        fallback = catalogue("en")
    try:
        t = gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])
    except OSError:
        t = gettext.NullTranslations()
    if fallback is not None:
        t.add_fallback(fallback)
    return t


def tr(lang: str, key: str, **fields) -> str:
    """The message ``key`` in ``lang``, its ``{fields}`` filled in."""
    text = catalogue(lang).gettext(key)
    return text.format(**fields) if fields else text


def card_text(lang: str, card: Card) -> str:
    """A card as a player of ``lang`` names it: the rank letter of the language (German B/D/K) and the suit sign."""
    rank = tr(lang, f"rank.{card.rank.label}")
    return f"{rank}{card.suit.symbol}"


def rank_text(lang: str, rank: int) -> str:
    from assistant.cards import Rank

    return tr(lang, f"rank.{Rank(rank).label}")


def percent(lang: str, x: float, digits: int = 1) -> str:
    """``x`` (a fraction) as a percentage with the language's decimal mark: 43.2 % / 43,2 %."""
    return number(lang, 100.0 * x, digits) + "\u00a0%"


def number(lang: str, x: float, digits: int = 1) -> str:
    text = f"{x:.{digits}f}"
    return text.replace(".", ",") if lang in ("de", "nl", "it") else text
