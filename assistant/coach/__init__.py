"""Training mode: the rules' tips as checks on the player's own moves, coach notes, reviews, tip values.

``tips_tommy`` / ``tips_poker`` judge a move against each tip of the rules (000-004); ``coach`` turns a hint
into notes and a played move into its cost; ``review`` goes through a finished game. All player text comes from
the gettext catalogues in ``assistant/locale`` (``i18n``).
"""
