"""`patience train cardface|suit`: each look trains on its crops and exports its LAST epoch, or only trains."""

import argparse
from pathlib import Path

from assistant.commands import train as train_command


class FakeTraining:
    """Stands for vision.training.train: records what would be trained, exported and declared."""

    def __init__(self):
        self.trained, self.exported, self.declared = [], [], []

    def train_classifier(self, **kw):
        self.trained.append(kw)
        return Path("runs") / kw["name"]

    def export_classifier(self, **kw):
        self.exported.append(kw)
        return Path("models") / f"{kw['filename']}.onnx"

    def write_suit_manifest(self, **kw):
        self.declared.append(("suit", kw))
        return Path("models/vision.json")

    def write_face_manifest(self, **kw):
        self.declared.append(("face", kw))
        return Path("models/vision.json")


def look_args(**over):
    base = dict(epochs=2, batch=8, lr=1e-3, samples_per_epoch=100, input=32, width=1, name="look", hours=None,
                init=None, val_crops=None, no_export=False, wire=True, weight=0.5, below=0.9)
    return argparse.Namespace(**{**base, **over})


def test_the_suit_look_learns_suits_and_ships_its_last_epoch(capsys):
    fake = FakeTraining()
    train_command._suitlook(fake, Path("crops"), look_args(hours=0.5))
    (kw,) = fake.trained
    assert kw["target"] == "suit" and kw["time_budget_s"] == 1800 and kw["crops"] == Path("crops")
    (ex,) = fake.exported
    assert ex["filename"] == "suitlook" and ex["checkpoint"] == "last.pt" and ex["run"] == Path("runs/look")
    assert fake.declared == [("suit", {"weight": 0.5, "below": 0.9})]


def test_the_face_classifier_reads_every_card_box_whatever_its_size():
    fake = FakeTraining()
    train_command._cardface(fake, None, Path("faces"), look_args(wire="card"))
    (kw,) = fake.trained
    assert kw["min_px"] == 0.0 and kw["min_visible"] == 0.0 and "target" not in kw
    assert [e["filename"] for e in fake.exported] == ["cardface"]
    assert fake.declared == [("face", {"weight": 0.5, "fuse": "card"})]


def test_train_only_exports_and_declares_nothing(capsys):
    fake = FakeTraining()
    train_command._suitlook(fake, Path("crops"), look_args(no_export=True))
    assert len(fake.trained) == 1 and fake.exported == [] and fake.declared == []
    assert "suit look trained: runs/look" in capsys.readouterr().out
