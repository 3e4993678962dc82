"""Every command's --help says what it does (issue 11: dataset, dataset fetch and train said nothing)."""

import pytest

from assistant.cli import build_parser


def command_help(*names) -> str:
    parser = build_parser()
    for name in names:
        parser = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices[name]
    return parser.format_help()


@pytest.mark.parametrize("names", [("dataset",), ("dataset", "fetch"), ("train",), ("train", "all"), ("resume",)])
def test_the_help_says_what_the_command_does(names):
    usage, _, rest = command_help(*names).partition("\n\n")
    description = rest.split("\n\n")[0]
    assert not description.startswith(("options:", "positional arguments:")) and len(description) > 20, description



def test_train_without_a_step_names_every_step(capsys):
    from assistant.cli import main

    assert main(["train"]) != 0
    err = capsys.readouterr().err
    steps = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction").choices["train"]
    names = next(a for a in steps._actions if a.__class__.__name__ == "_SubParsersAction").choices
    assert all(name in err for name in names), err


@pytest.mark.parametrize("argv, width", [([], None), (["--width", "3"], 3)])
def test_train_classifier_passes_a_width_only_when_asked(argv, width):
    from assistant.commands.train import classifier_options

    args = build_parser().parse_args(["train", "classifier", "--name", "wide", "--hours", "0.5", *argv])
    options = classifier_options(args)
    assert options.get("width") == width and ("width" in options) == (width is not None)
    assert options["name"] == "wide" and options["time_budget_s"] == 1800
