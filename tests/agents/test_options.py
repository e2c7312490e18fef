"""The shared agent-option parser: typed conversion, defaults, bare items, and refusals that name what is accepted."""

from dataclasses import dataclass

import pytest

from paiju.agents.options import check_options, option, parse_items, parse_options
from paiju.core.errors import PaijuError


@dataclass(frozen=True, slots=True)
class Toy:
    mode: str = option("fast", choices=("fast", "slow"))
    count: int = option(3, minimum=1)
    limit: int | None = option(None, minimum=0)
    weight: float = option(0.5, minimum=0, maximum=1)
    scale: float = option(1.0, positive=True, finite=True)
    gain: float | None = None
    path: str = ""


@dataclass(frozen=True, slots=True)
class Chain:
    depth: int = option(1, minimum=1)
    then: str = option("rules", rest=True)


def parse(argument: str, **how) -> Toy:
    return parse_options(argument, Toy(), "toy", **how)


def test_values_are_converted_by_the_field_types() -> None:
    options = parse("mode=slow,count=7,limit=0,weight=1,scale=2.5,gain=-3e2,path=a/b.pt")
    assert options == Toy(mode="slow", count=7, limit=0, weight=1.0, scale=2.5, gain=-300.0, path="a/b.pt")
    assert type(options.count) is int and type(options.limit) is int
    assert type(options.weight) is float and type(options.gain) is float


def test_defaults_are_kept_where_not_given_and_may_be_any_instance() -> None:
    assert parse("") == Toy()
    assert parse(" , count = 4 ,, ") == Toy(count=4)
    assert parse_options("weight=0", Toy(count=9, path="x"), "toy") == Toy(count=9, weight=0.0, path="x")


def test_items_are_returned_as_given_only() -> None:
    given = parse_items("scale=3,count=2", Toy, "toy")
    assert given == {"scale": 3.0, "count": 2} and list(given) == ["scale", "count"]
    assert parse_items("", Toy, "toy") == {}


@pytest.mark.parametrize(("argument", "message"), [
    ("count=0", "toy option count must be a whole number >= 1, got '0'"),
    ("count=-2", "toy option count must be a whole number >= 1, got '-2'"),
    ("count=2.0", "toy option count must be a whole number >= 1, got '2.0'"),
    ("count=true", "toy option count must be a whole number >= 1, got 'true'"),
    ("count=True", "toy option count must be a whole number >= 1, got 'True'"),
    ("count=+3", "toy option count must be a whole number >= 1, got '+3'"),
    ("count=\u0663", "toy option count must be a whole number >= 1, got '\u0663'"),
    ("limit=-1", "toy option limit must be a whole number >= 0, got '-1'"),
    ("limit=none", "toy option limit must be a whole number >= 0, got 'none'"),
    ("weight=1.01", "toy option weight must be a number from 0 to 1, got '1.01'"),
    ("weight=nan", "toy option weight must be a number from 0 to 1, got 'nan'"),
    ("weight=half", "toy option weight must be a number from 0 to 1, got 'half'"),
    ("scale=0", "toy option scale must be a finite positive number, got '0'"),
    ("scale=inf", "toy option scale must be a finite positive number, got 'inf'"),
    ("scale=-inf", "toy option scale must be a finite positive number, got '-inf'"),
    ("gain=nan", "toy option gain must be a number, got 'nan'"),
    ("gain=NaN", "toy option gain must be a number, got 'NaN'"),
    ("gain=\u0661", "toy option gain must be a number, got '\u0661'"),
    ("mode=quick", "toy option mode must be one of fast, slow, got 'quick'"),
    ("mode=", "toy option mode must be one of fast, slow, got ''"),
    ("path=", "toy option path must be a non-empty string, got ''"),
    ("count=", "toy option count must be a whole number >= 1, got ''"),
])
def test_bad_values_name_the_option_and_what_it_accepts(argument: str, message: str) -> None:
    with pytest.raises(PaijuError) as refusal:
        parse(argument)
    assert str(refusal.value) == message


def test_infinity_is_a_number_unless_the_option_is_finite() -> None:
    assert parse("gain=inf").gain == float("inf")
    assert parse("gain=-inf").gain == float("-inf")


ALL_KEYS = "accepted keys: mode, count, limit, weight, scale, gain, path"


@pytest.mark.parametrize(("argument", "message"), [
    ("depth=3", f"unknown toy option 'depth'; {ALL_KEYS}"),
    ("count", f"toy option 'count' is not key=value; {ALL_KEYS}"),
    ("a/b.pt", f"toy option 'a/b.pt' is not key=value; {ALL_KEYS}"),
    ("count=2,count=2", "toy option count is given twice"),
    ("count=2, count =3", "toy option count is given twice"),
])
def test_unknown_bare_or_repeated_items_are_refused(argument: str, message: str) -> None:
    with pytest.raises(PaijuError) as refusal:
        parse(argument)
    assert str(refusal.value) == message


def bare(item: str) -> str:
    return "mode" if item in ("fast", "slow") else "path"


def test_bare_items_are_mapped_by_the_caller() -> None:
    assert parse("slow,m.pt,count=2", bare=bare) == Toy(mode="slow", count=2, path="m.pt")
    assert parse("path=slow", bare=bare) == Toy(path="slow")
    assert parse("runs/a=b.pt", bare=bare) == Toy(path="runs/a=b.pt")  # not a word before '=': a bare item
    with pytest.raises(PaijuError, match=r"^toy option mode is given twice$"):
        parse("fast,slow", bare=bare)
    with pytest.raises(PaijuError, match=r"^toy option path is given twice$"):
        parse("path=a.pt,b.pt", bare=bare)


def test_only_some_keys_may_be_accepted_and_the_others_are_refused_with_why() -> None:
    how = {"only": ("path", "count"), "why": "a toy of one kind"}
    assert parse("path=x,count=5", **how) == Toy(path="x", count=5)
    with pytest.raises(PaijuError) as refusal:
        parse("weight=0.1", **how)
    assert str(refusal.value) == "toy takes no weight= option: a toy of one kind; accepted keys: path, count"
    with pytest.raises(PaijuError) as refusal:
        parse("depth=1", **how)
    assert str(refusal.value) == "unknown toy option 'depth'; accepted keys: path, count"
    with pytest.raises(PaijuError) as refusal:
        parse("weight=0.1", only=("count",))
    assert str(refusal.value) == "toy takes no weight= option; accepted keys: count"


def test_a_rest_option_takes_every_item_after_it() -> None:
    chain = parse_options("depth=2,search:algo=ismcts,worlds=8", Chain(), "chain", bare=lambda item: "then")
    assert chain == Chain(depth=2, then="search:algo=ismcts,worlds=8")
    assert parse_options("then=ext:prog --x=1,2", Chain(), "chain") == Chain(then="ext:prog --x=1,2")
    assert parse_options("depth=3", Chain(), "chain") == Chain(depth=3)
    with pytest.raises(PaijuError, match="'dmc' is not key=value"):
        parse_options("dmc,depth=2", Chain(), "chain")


@pytest.mark.parametrize(("changes", "message"), [
    ({"count": True}, "toy option count must be a whole number >= 1, got True"),
    ({"count": 2.0}, "toy option count must be a whole number >= 1, got 2.0"),
    ({"count": None}, "toy option count must be a whole number >= 1, got None"),
    ({"weight": False}, "toy option weight must be a number from 0 to 1, got False"),
    ({"weight": float("nan")}, "toy option weight must be a number from 0 to 1, got nan"),
    ({"scale": float("inf")}, "toy option scale must be a finite positive number, got inf"),
    ({"gain": float("nan")}, "toy option gain must be a number, got nan"),
    ({"gain": "1"}, "toy option gain must be a number, got '1'"),
    ({"mode": "quick"}, "toy option mode must be one of fast, slow, got 'quick'"),
    ({"path": 3}, "toy option path must be a non-empty string, got 3"),
])
def test_instances_made_in_code_are_checked_by_the_same_rules(changes: dict, message: str) -> None:
    check_options(Toy(limit=4, gain=2, weight=1), "toy")  # ints are numbers; None where optional
    with pytest.raises(PaijuError) as refusal:
        check_options(Toy(**changes), "toy")
    assert str(refusal.value) == message


def test_a_field_of_an_unsupported_type_is_a_programming_error() -> None:
    @dataclass(frozen=True)
    class Odd:
        pair: tuple[int, int] = (1, 2)

    with pytest.raises(TypeError, match=r"Odd\.pair"):
        parse_items("pair=1", Odd, "odd")
