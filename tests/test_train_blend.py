"""`patience train blend`: a classifier's weights blended with a fine-tune of it, exported like any classifier."""
import numpy as np
import pytest


def _checkpoint(torch, path, seed, width=1, classes=None):
    from vision.card_names import CARD_NAMES
    from vision.training.train import make_cropnet

    torch.manual_seed(seed)
    model = make_cropnet(53, width=width, input_size=32)
    torch.save({"model": model.state_dict(), "classes": list(classes or CARD_NAMES) + ["none"], "width": width,
                "input_size": 32}, path)
    return model.state_dict()


def test_a_blend_lies_between_the_two_checkpoints_by_the_share(tmp_path):
    torch = pytest.importorskip("torch")
    from vision.training.train import blend_classifiers

    base = _checkpoint(torch, tmp_path / "base.pt", 0)
    tuned = _checkpoint(torch, tmp_path / "tuned.pt", 1)
    for share in (0.0, 0.7, 1.0):
        mixed = torch.load(blend_classifiers(tmp_path / "base.pt", tmp_path / "tuned.pt", share, tmp_path / str(share)),
                           weights_only=False)
        for name, weight in tuned.items():
            if weight.is_floating_point():
                assert torch.allclose(mixed["model"][name], (1 - share) * base[name] + share * weight, atol=1e-6)
            else:  # counters (batch norm's batches seen) are not blended
                assert torch.equal(mixed["model"][name], weight)
        assert mixed["blend"]["share"] == share


def test_only_checkpoints_of_one_shape_and_one_class_list_blend(tmp_path):
    torch = pytest.importorskip("torch")
    from vision.card_names import CARD_NAMES
    from vision.training.train import blend_classifiers

    _checkpoint(torch, tmp_path / "base.pt", 0)
    _checkpoint(torch, tmp_path / "wider.pt", 1, width=2)
    _checkpoint(torch, tmp_path / "reordered.pt", 2, classes=list(reversed(CARD_NAMES)))
    with pytest.raises(ValueError, match="not the same classifier shape"):
        blend_classifiers(tmp_path / "base.pt", tmp_path / "wider.pt", 0.5, tmp_path / "a")
    with pytest.raises(ValueError, match="different classes"):
        blend_classifiers(tmp_path / "base.pt", tmp_path / "reordered.pt", 0.5, tmp_path / "b")
    with pytest.raises(ValueError, match="between 0 and 1"):
        blend_classifiers(tmp_path / "base.pt", tmp_path / "base.pt", 1.5, tmp_path / "c")
    exported = {k: v for k, v in torch.load(tmp_path / "base.pt", weights_only=False).items()
                if k not in ("width", "input_size")}  # as export_classifier writes it: no shape but a text
    torch.save(exported, tmp_path / "exported.pt")
    with pytest.raises(ValueError, match="records its width"):
        blend_classifiers(tmp_path / "exported.pt", tmp_path / "exported.pt", 0.5, tmp_path / "d")
    assert torch.load(blend_classifiers(tmp_path / "exported.pt", tmp_path / "base.pt", 0.5, tmp_path / "e"),
                      weights_only=False)["width"] == 1  # the shape from whichever checkpoint has it


def test_train_blend_exports_an_onnx_classifier_that_agrees_with_the_blend(tmp_path, capsys):
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from assistant.cli import main
    from vision.onnx_backend import OnnxClassifier
    from vision.training.train import make_cropnet

    base = _checkpoint(torch, tmp_path / "base.pt", 0)
    tuned = _checkpoint(torch, tmp_path / "tuned.pt", 1)
    assert main(["train", "blend", str(tmp_path / "base.pt"), str(tmp_path / "tuned.pt"), "--share", "0.25",
                 "--out", str(tmp_path / "out")]) == 0
    assert "classifier.onnx" in capsys.readouterr().out
    model = make_cropnet(53, width=1, input_size=32).eval()
    model.load_state_dict({k: 0.75 * base[k] + 0.25 * v if v.is_floating_point() else v for k, v in tuned.items()})
    x = np.random.default_rng(0).random((4, 3, 32, 32), dtype=np.float32)
    with torch.no_grad():
        expected = torch.softmax(model(torch.from_numpy(x)), dim=1).numpy()
    got = OnnxClassifier(tmp_path / "out" / "classifier.onnx").probabilities(x)
    assert np.abs(got - expected).max() < 1e-4


def test_train_blend_names_a_missing_checkpoint(tmp_path, capsys):
    pytest.importorskip("torch")
    from assistant.cli import main

    assert main(["train", "blend", str(tmp_path / "none.pt"), str(tmp_path / "none.pt"),
                 "--out", str(tmp_path / "out")]) == 2
    assert "no checkpoint" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
