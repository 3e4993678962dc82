"""The live camera assistant: frames -> detections (vision/) -> a still view of the table -> game events -> hints.

- ``table_view``: evidence per card over the quiet frames, so one misread frame or a hand never changes anything;
- ``tommy_follower`` / ``poker_follower``: the table's places learned from where cards land, and the legal game
  events that explain each change of the still view (the rules choose among candidates); ``follower``: what the
  loop asks of both;
- ``hint_worker``: the advisor off the frame path; ``loop``: the whole pipeline; ``live_panel`` / ``json_events``:
  what the player sees or a program reads.
"""
