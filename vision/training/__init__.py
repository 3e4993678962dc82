"""The code that makes the recogniser's training data, trains it and scores it on labelled sets.

Nothing at play time imports this package (``tests/test_layout_rules.py``): a player's install runs ``vision/``
(frames -> detections) and the committed ``models/`` only. The data recipes it reads are files in ``datasets/``.
"""
