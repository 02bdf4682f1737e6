"""Numbers keep their bytes: a JSON text is read in Rust, never by
Python's ``json``; a Python value converts as the library reads JSON."""

from __future__ import annotations

import pytest

import disclose

SCHEMA = {"type": "object"}


@pytest.fixture
def run() -> disclose.Run:
    catalog = disclose.Catalog()
    catalog.admit_tool("t", "any", "Takes anything.", SCHEMA, effect="read", approval="never")
    return catalog.start("work")


def routed(run: disclose.Run, args: object) -> str:
    # t__any is dormant: it is reached through the call door.
    if isinstance(args, str):
        answer = run.answer("c", "call", '{"name":"t__any","args":' + args + "}")
    else:
        answer = run.answer("c", "call", {"name": "t__any", "args": args})
    assert isinstance(answer, disclose.Execute), answer
    return answer.args_json


@pytest.mark.parametrize(
    "text, written",
    [
        ('{"n":18446744073709551615}', '{"n":18446744073709551615}'),
        ('{"n":9007199254740993}', '{"n":9007199254740993}'),
        ('{"n":-0}', '{"n":-0.0}'),
        ('{"n":1.0}', '{"n":1.0}'),
        ('{"n":1E+2}', '{"n":100.0}'),
        ('{"n":123456789012345678901234567890}', '{"n":1.2345678901234568e+29}'),
        ('{"n":-9223372036854775808}', '{"n":-9223372036854775808}'),
        ('{"b":2,"a":[1,2.5e-5]}', '{"a":[1,0.000025],"b":2}'),
    ],
)
def test_a_json_text_keeps_its_numbers(run: disclose.Run, text: str, written: str) -> None:
    assert routed(run, text) == written


def test_python_values_convert_as_json_reads_their_digits(run: disclose.Run) -> None:
    assert routed(run, {"n": 2**64 - 1}) == '{"n":18446744073709551615}'
    assert routed(run, {"n": -0.0}) == '{"n":-0.0}'
    assert routed(run, {"n": 1.0}) == '{"n":1.0}'
    assert routed(run, {"n": 10**30}) == routed(run, '{"n":1000000000000000000000000000000}')
    assert routed(run, {"n": True, "m": None, "t": (1, "x")}) == '{"m":null,"n":true,"t":[1,"x"]}'


def test_execute_args_hold_the_exact_values(run: disclose.Run) -> None:
    answer = run.answer("c", "call", '{"name":"t__any","args":{"n":18446744073709551615,"z":-0}}')
    assert isinstance(answer, disclose.Execute)
    assert answer.args["n"] == 2**64 - 1
    assert str(answer.args["z"]) == "-0.0"


def test_1e400_is_not_a_number_the_library_holds(run: disclose.Run) -> None:
    with pytest.raises(disclose.InputError, match="line 1 column"):
        run.answer("c", "call", '{"name":"t__any","args":{"n":1e400}}')
    with pytest.raises(disclose.InputError, match="inf"):
        run.answer("c", "t__any", {"n": float("inf")})
    with pytest.raises(disclose.InputError, match="NaN"):
        run.answer("c", "t__any", {"n": float("nan")})


def test_schema_numbers_keep_their_bytes_too() -> None:
    text, parsed = disclose.Catalog(), disclose.Catalog()
    text.admit_tool("t", "a", "A.", '{"type":"object","properties":{"n":{"maximum":-0}}}')
    parsed.admit_tool("t", "a", "A.", {"type": "object", "properties": {"n": {"maximum": 0}}})
    one, other = text.tool("t__a"), parsed.tool("t__a")
    assert one is not None and other is not None
    assert one.input_schema_json == '{"properties":{"n":{"maximum":-0.0}},"type":"object"}'
    assert one.digest != other.digest
    assert disclose.canonical_json('{"b":-0,"a":1.0}') == '{"a":1.0,"b":-0.0}'
