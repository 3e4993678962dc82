"""The coach's message catalogues: every message in all four languages, placeholders kept, .mo files current."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from assistant.cards import RANK_LABELS
from assistant.coach import i18n, mo, tips_poker, tips_tommy

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [*sorted((ROOT / "assistant" / "coach").glob("*.py")), ROOT / "assistant" / "commands" / "review.py",
           ROOT / "assistant" / "commands" / "stats.py"]
KEY = re.compile(r'"((?:why|coach|move|cost|review|stats|value|term|hand|rank|tip|game)\.[A-Za-z0-9.\-]+)"')


def used_keys() -> set[str]:
    """Every message the code asks for: literal ids in the sources, plus the ids it builds (tips, ranks, ...)."""
    keys = set()
    for path in SOURCES:
        keys |= set(KEY.findall(path.read_text(encoding="utf-8")))
    for tip in tips_tommy.TIPS + tips_poker.TIPS:
        keys |= {tip.key, f"{tip.key}.title"}
    keys |= {f"rank.{label}" for label in RANK_LABELS}
    keys |= {f"term.{k}" for k in ("waste", "foundation", "row", "column")}
    keys |= {f"hand.{k}" for k in ("pair", "three", "four", "flush", "straight")}
    keys |= {f"game.{g}" for g in ("tommy", "poker")} | {f"move.{k}" for k in ("waste", "foundation")}
    return keys


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


CATALOGUES = {p.parent.parent.name: mo.read_po(p) for p in mo.po_files()}


def test_there_is_a_catalogue_for_each_language():
    assert set(CATALOGUES) == set(i18n.LANGS) == {"en", "de", "nl", "it"}


def test_the_keys_found_include_the_builders():
    keys = used_keys()
    assert "why.tommy.high-pile.kept" in keys and "tip.poker.bin.title" in keys and "cost.poker" in keys


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_message_is_in_every_catalogue(lang):
    have = CATALOGUES[lang]
    missing = sorted(k for k in used_keys() if not have.get(k))
    assert not missing, f"{lang} catalogue lacks {missing}"


@pytest.mark.parametrize("lang", ["de", "nl", "it"])
def test_translations_keep_the_placeholders(lang):
    en = CATALOGUES["en"]
    for key, text in CATALOGUES[lang].items():
        if key:
            assert fields(text) == fields(en[key]), f"{lang} {key}: {fields(text)} != {fields(en[key])}"


def test_the_compiled_catalogues_match_their_po_files():
    for po in mo.po_files():
        assert po.with_suffix(".mo").read_bytes() == mo.mo_bytes(mo.read_po(po)), f"run python -m assistant.coach.mo ({po})"


def test_the_rules_own_terms_in_each_language():
    """README of the rules: foundation/waste pile, Zielstapel/Abwurfstapel, fundering/aflegstapel,
    base/pila degli scarti."""
    terms = {"en": ("foundation", "waste pile"), "de": ("Zielstapel", "Abwurfstapel"),
             "nl": ("fundering", "aflegstapel"), "it": ("base", "pila degli scarti")}
    for lang, (found, waste) in terms.items():
        assert i18n.tr(lang, "term.foundation", n=1).startswith(found)
        assert i18n.tr(lang, "term.waste", n=2).startswith(waste)


def test_tips_quote_the_rules_texts():
    """Where a language's rules text has the tip, the catalogue quotes it word for word."""
    rules = Path(__file__).resolve().parents[2] / "shared" / "rules"  # shared/ lies beside the repository
    if not rules.exists():
        pytest.skip("rules texts not available")
    text = {name[:3]: p.read_text(encoding="utf-8") for p in rules.glob("*.txt") for name in [p.name]}
    assert CATALOGUES["de"]["tip.tommy.high-pile"] in text["000"]
    assert CATALOGUES["en"]["tip.tommy.higher-not-lower"] in text["001"]
    assert CATALOGUES["nl"]["tip.tommy.two-under-three"] in text["002"]
    assert CATALOGUES["it"]["tip.tommy.watch-seen"] in text["003"]
    assert CATALOGUES["de"]["tip.poker.plan-rare"] in text["004"]


def test_missing_messages_fall_back_to_english_then_to_the_id():
    assert i18n.tr("de", "no.such.message") == "no.such.message"


def test_language_from_the_environment(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    assert i18n.default_lang() == "nl"
    monkeypatch.setenv("LANGUAGE", "it:de")
    assert i18n.default_lang() == "it"
    with pytest.raises(ValueError):
        i18n.check_lang("fr")


def test_cards_and_numbers_as_each_language_writes_them():
    from assistant.cards import Card

    assert i18n.card_text("de", Card.parse("Qh")) == "D♥" and i18n.card_text("nl", Card.parse("Ks")) == "H♠"
    assert i18n.percent("de", 0.432) == "43,2\u00a0%" and i18n.percent("en", 0.432) == "43.2\u00a0%"
