"""Toolsets: schema inference from typed callables, toolset checks, the JSON
schema validator and host-side tool execution (sync, async, timeouts).

No `from __future__ import annotations` here: the inference must see the
annotation objects of classes defined inside the tests."""


import asyncio
import dataclasses
import enum
import time
from typing import Annotated, Any, Literal, Optional, TypedDict, Union

import pytest

from conftest import echo_toolset

from localsandbox import (
    Field,
    LocalSandbox,
    PythonToolset,
    ToolDefinition,
    function_to_tool_definition,
    functions_to_toolset,
)
from localsandbox.core import JsonValue
from localsandbox.tools import (
    ToolTimeout,
    resolve_toolset,
    run_tool,
    to_json_value,
    type_to_schema,
    validate_json_schema,
)

STR_DICT = {"type": "object", "additionalProperties": {"type": "string"}}


class TestInference:
    def test_function_to_tool_definition(self) -> None:
        def greet(name: str, excited: bool = False) -> dict[str, str]:
            """Greet a user.

            More text that is not part of the description.
            """
            return {"message": f"Hello, {name}{'!' if excited else '.'}"}

        assert function_to_tool_definition(greet) == ToolDefinition(
            name="greet",
            description="Greet a user.",
            input_schema={
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "excited": {"type": "boolean", "default": False},
                },
                "required": ["name"],
                "additionalProperties": False,
            },
            output_schema=STR_DICT,
        )

    def test_optional_is_anyof(self) -> None:
        def maybe_echo(text: str | None) -> dict[str, str]:
            """Echo text if present."""
            return {"echo": text or ""}

        d = function_to_tool_definition(maybe_echo)
        assert d.input_schema["properties"]["text"] == {"anyOf": [{"type": "string"}, {"type": "null"}]}
        assert d.input_schema["required"] == ["text"]

    def test_typing_optional_and_union(self) -> None:
        def f(a: Optional[int], b: Union[int, str] = 3) -> None:  # noqa: UP007
            """F."""

        d = function_to_tool_definition(f)
        assert d.input_schema["properties"] == {
            "a": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "b": {"anyOf": [{"type": "integer"}, {"type": "string"}], "default": 3},
        }
        assert d.output_schema == {"type": "null"}

    def test_annotated_field_on_bound_method(self) -> None:
        class Helpers:
            def repeat(
                self,
                text: Annotated[str, Field(description="Text to repeat", min_length=1)],
                count: Annotated[int, Field(ge=1, le=5)] = 2,
            ) -> dict[str, str]:
                """Repeat text."""
                return {"text": text * count}

        assert function_to_tool_definition(Helpers().repeat) == ToolDefinition(
            name="repeat",
            description="Repeat text.",
            input_schema={
                "type": "object",
                "properties": {
                    "text": {"description": "Text to repeat", "minLength": 1, "type": "string"},
                    "count": {"default": 2, "maximum": 5, "minimum": 1, "type": "integer"},
                },
                "required": ["text"],
                "additionalProperties": False,
            },
            output_schema=STR_DICT,
        )

    def test_field_bounds_on_arrays_and_exclusive(self) -> None:
        def f(
            xs: Annotated[list[float], Field(min_length=1, max_length=3)],
            p: Annotated[float, Field(gt=0, lt=1, multiple_of=0.25)],
            s: Annotated[str, Field(pattern="^[a-z]+$", title="dropped", examples=["ab"])],
        ) -> list[int]:
            """F."""
            return []

        props = function_to_tool_definition(f).input_schema["properties"]
        assert props["xs"] == {"type": "array", "items": {"type": "number"}, "minItems": 1, "maxItems": 3}
        assert props["p"] == {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1, "multipleOf": 0.25}
        assert props["s"] == {"type": "string", "pattern": "^[a-z]+$", "examples": ["ab"]}

    def test_annotated_types_objects_are_read(self) -> None:
        class Ge:  # shaped like annotated_types.Ge
            def __init__(self, ge: int) -> None:
                self.ge = ge

        def f(n: Annotated[int, Ge(3)]) -> None:
            """F."""

        assert function_to_tool_definition(f).input_schema["properties"]["n"] == {"type": "integer", "minimum": 3}

    def test_pydantic_v2_style_fieldinfo_metadata(self) -> None:
        class Ge:
            ge = 1

        class FieldInfoV2:  # pydantic v2 keeps constraints in .metadata
            description = "count"
            metadata = [Ge()]

        def f(n: Annotated[int, FieldInfoV2()]) -> None:
            """F."""

        assert function_to_tool_definition(f).input_schema["properties"]["n"] == {
            "type": "integer",
            "minimum": 1,
            "description": "count",
        }

    def test_containers(self) -> None:
        assert type_to_schema(list[str]) == {"type": "array", "items": {"type": "string"}}
        assert type_to_schema(list) == {"type": "array", "items": {}}
        assert type_to_schema(dict) == {"type": "object"}
        assert type_to_schema(dict[str, Any]) == {"type": "object"}
        assert type_to_schema(dict[str, list[int]]) == {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "integer"}},
        }
        assert type_to_schema(tuple[int, ...]) == {"type": "array", "items": {"type": "integer"}}
        assert type_to_schema(tuple[int, str]) == {
            "type": "array",
            "prefixItems": [{"type": "integer"}, {"type": "string"}],
            "minItems": 2,
            "maxItems": 2,
        }
        assert type_to_schema(set[int]) == {"type": "array", "uniqueItems": True, "items": {"type": "integer"}}
        assert type_to_schema(Any) == {}
        assert type_to_schema(bytes) == {"type": "string", "format": "binary"}

    def test_literal_enum_dataclass_typeddict(self) -> None:
        class Color(enum.Enum):
            RED = "red"
            BLUE = "blue"

        @dataclasses.dataclass
        class Point:
            x: int
            y: int = 0

        class Movie(TypedDict):
            title: str
            year: int

        assert type_to_schema(Literal["a", "b"]) == {"enum": ["a", "b"], "type": "string"}
        assert type_to_schema(Literal[3]) == {"const": 3, "type": "integer"}
        assert type_to_schema(Color) == {"enum": ["red", "blue"], "type": "string"}
        assert type_to_schema(Point) == {
            "type": "object",
            "properties": {"x": {"type": "integer"}, "y": {"type": "integer", "default": 0}},
            "required": ["x"],
        }
        # a property named "title" is a property, not a title keyword
        assert type_to_schema(Movie)["properties"] == {"title": {"type": "string"}, "year": {"type": "integer"}}

    def test_no_return_annotation_no_output_schema(self) -> None:
        def f(x: int):  # type: ignore[no-untyped-def]
            """F."""
            return x

        assert function_to_tool_definition(f).output_schema is None

    def test_no_docstring(self) -> None:
        def f(x: int) -> int:
            return x

        assert function_to_tool_definition(f).description == ""

    def test_missing_hint(self) -> None:
        def f(x, y: int) -> int:  # type: ignore[no-untyped-def]
            """F."""
            return y

        with pytest.raises(ValueError, match="parameter 'x' is missing a type hint"):
            function_to_tool_definition(f)

    @pytest.mark.parametrize("sig", ["*args: int", "**kw: int"])
    def test_var_parameters_refused(self, sig: str) -> None:
        ns: dict[str, Any] = {}
        exec(f"def f({sig}) -> int:\n    return 0\n", ns)
        with pytest.raises(ValueError, match="must be positional/keyword or keyword-only"):
            function_to_tool_definition(ns["f"])

    def test_keyword_only_is_fine(self) -> None:
        def f(*, x: int) -> int:
            """F."""
            return x

        assert function_to_tool_definition(f).input_schema["required"] == ["x"]

    def test_unsupported_type(self) -> None:
        class Opaque:
            pass

        def f(x: Opaque) -> None:
            """F."""

        with pytest.raises(ValueError, match="cannot derive a JSON schema"):
            function_to_tool_definition(f)

    def test_not_callable(self) -> None:
        with pytest.raises(TypeError):
            function_to_tool_definition(42)  # type: ignore[arg-type]

    def test_recursive_type_is_bounded(self) -> None:
        nested: Any = int
        for _ in range(200):
            nested = list[nested]

        def f(x: nested) -> None:  # type: ignore[valid-type]
            """F."""

        with pytest.raises(ValueError, match="too deeply"):
            function_to_tool_definition(f)


class TestFunctionsToToolset:
    def test_handlers_validate_and_call(self) -> None:
        def repeat(text: str, count: int = 2) -> dict[str, str]:
            """Repeat text."""
            return {"text": text * count}

        toolset = functions_to_toolset([repeat])
        assert [d.name for d in toolset.definitions] == ["repeat"]
        assert toolset.handlers["repeat"]({"text": "ha"}) == {"text": "haha"}
        with pytest.raises(ValueError, match=r"\$\[repeat\]\.count must be of type 'integer'"):
            toolset.handlers["repeat"]({"text": "ha", "count": "x"})
        with pytest.raises(ValueError, match="is not allowed"):
            toolset.handlers["repeat"]({"text": "ha", "extra": 1})

    def test_async_function(self) -> None:
        async def reverse(text: str) -> str:
            """Reverse."""
            await asyncio.sleep(0)
            return text[::-1]

        toolset = functions_to_toolset([reverse])
        definition = toolset.definitions[0]
        assert run_tool(definition, toolset.handlers["reverse"], {"text": "drawer"}) == "reward"

    def test_result_converted_to_json(self) -> None:
        @dataclasses.dataclass
        class R:
            xs: tuple[int, ...]

        def f() -> R:
            """F."""
            return R((1, 2))

        toolset = functions_to_toolset([f])
        assert toolset.handlers["f"]({}) == {"xs": [1, 2]}

    def test_duplicate_names(self) -> None:
        def a(x: int) -> int:
            """A."""
            return x

        with pytest.raises(ValueError, match="Duplicate tool definition: a"):
            functions_to_toolset([a, a])

    @pytest.mark.parametrize("bad", ["abc", 5, [1, 2]])
    def test_bad_sequences(self, bad: Any) -> None:
        with pytest.raises(TypeError):
            functions_to_toolset(bad)



class TestResolveToolset:
    def test_none(self) -> None:
        assert resolve_toolset(None) is None

    def test_toolset(self) -> None:
        defs, handlers = resolve_toolset(echo_toolset())  # type: ignore[misc]
        assert list(defs) == ["echo"] and list(handlers) == ["echo"]

    def test_callables(self) -> None:
        def f(x: int) -> int:
            """F."""
            return x

        defs, _ = resolve_toolset([f])  # type: ignore[misc]
        assert defs["f"].input_schema["required"] == ["x"]

    def test_missing_handler(self) -> None:
        ts = PythonToolset(definitions=echo_toolset().definitions, handlers={})
        with pytest.raises(ValueError, match="Missing handlers for tools: echo"):
            resolve_toolset(ts)

    def test_extra_handler(self) -> None:
        ts = PythonToolset(definitions=[], handlers={"ghost": lambda p: p})
        with pytest.raises(ValueError, match="Handlers declared without matching tool definitions: ghost"):
            resolve_toolset(ts)

    def test_duplicate_definition(self) -> None:
        d = echo_toolset().definitions[0]
        with pytest.raises(ValueError, match="Duplicate tool definition: echo"):
            resolve_toolset(PythonToolset(definitions=[d, d], handlers={"echo": lambda p: p}))

    @pytest.mark.parametrize("timeout", [0, -5])
    def test_non_positive_timeout(self, timeout: int) -> None:
        with pytest.raises(ValueError, match="must have a positive timeout_ms"):
            resolve_toolset(echo_toolset(timeout_ms=timeout))

    @pytest.mark.parametrize(
        "definition, match",
        [
            (ToolDefinition(name="", description="", input_schema={}), "name"),
            (ToolDefinition(name="x", description=3, input_schema={}), "description"),  # type: ignore[arg-type]
            (ToolDefinition(name="x", description="", input_schema=[]), "input_schema"),  # type: ignore[arg-type]
            (ToolDefinition(name="x", description="", input_schema={}, output_schema=1), "output_schema"),  # type: ignore[arg-type]
            (ToolDefinition(name="x", description="", input_schema={}, timeout_ms="1"), "timeout_ms"),  # type: ignore[arg-type]
        ],
    )
    def test_field_types(self, definition: ToolDefinition, match: str) -> None:
        with pytest.raises(TypeError, match=match):
            resolve_toolset(PythonToolset(definitions=[definition], handlers={definition.name: print}))

    def test_non_callable_handler(self) -> None:
        ts = PythonToolset(definitions=echo_toolset().definitions, handlers={"echo": 42})  # type: ignore[dict-item]
        with pytest.raises(TypeError, match="not callable"):
            resolve_toolset(ts)

    def test_schema_must_be_json(self) -> None:
        d = ToolDefinition(name="x", description="", input_schema={"default": object()})
        with pytest.raises(ValueError, match="schemas must be JSON"):
            resolve_toolset(PythonToolset(definitions=[d], handlers={"x": print}))

    @pytest.mark.parametrize("bad", ["tools", 7, [1], {"a": 1}])
    def test_wrong_toolset_types(self, bad: Any) -> None:
        with pytest.raises(TypeError):
            resolve_toolset(bad)

    def test_execute_python_checks_toolsets_before_running(self, sandbox: LocalSandbox) -> None:
        # whether or not this build has Python, a bad toolset is refused first
        with pytest.raises(TypeError, match="only callables"):
            sandbox.execute_python("print(1)", toolset=[print, 3])  # type: ignore[list-item]
        with pytest.raises(ValueError, match="Missing handlers"):
            sandbox.execute_python(
                "print(1)", toolset=PythonToolset(definitions=echo_toolset().definitions, handlers={})
            )
        assert sandbox.history() == []


class TestValidator:
    @pytest.mark.parametrize(
        "value, schema",
        [
            (1, {"type": "integer"}),
            (1.0, {"type": "integer"}),
            (1, {"type": "number"}),
            (None, {"type": ["string", "null"]}),
            ({"a": 1}, {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}),
            ([1, 2], {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}),
            ("b", {"enum": ["a", "b"]}),
            ("x", {"anyOf": [{"type": "integer"}, {"type": "string"}]}),
            ({"k": "v"}, {"type": "object", "additionalProperties": {"type": "string"}}),
            ([1, "a"], {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}),
            ("abc", {"type": "string", "pattern": "^a", "minLength": 3, "maxLength": 3}),
            (5, {"minimum": 5, "maximum": 5, "multipleOf": 5}),
            ("anything", {}),
            (3, True),
        ],
    )
    def test_accepts(self, value: Any, schema: Any) -> None:
        validate_json_schema(value, schema)

    @pytest.mark.parametrize(
        "value, schema, message",
        [
            (True, {"type": "integer"}, "must be of type 'integer', got 'boolean'"),
            ("1", {"type": "number"}, "got 'string'"),
            ({}, {"type": "object", "required": ["a"]}, r"\$\.a is required"),
            ({"b": 1}, {"type": "object", "additionalProperties": False}, r"\$\.b is not allowed"),
            ([1, "x"], {"type": "array", "items": {"type": "integer"}}, r"\$\[1\] must be of type"),
            ("c", {"enum": ["a", "b"]}, "must be one of"),
            (1.5, {"anyOf": [{"type": "integer"}, {"type": "string"}]}, "matches none"),
            (4, {"minimum": 5}, ">= 5"),
            (5, {"exclusiveMaximum": 5}, "< 5"),
            ("ab", {"minLength": 3}, "at least 3"),
            ("zz", {"pattern": "^a"}, "must match pattern"),
            ([1, 1], {"uniqueItems": True}, "unique"),
            ([], {"minItems": 1}, "at least 1 items"),
            (7, {"const": 8}, "must be 8"),
            (3, False, "is not allowed"),
            (1, {"oneOf": [{"type": "integer"}, {"type": "number"}]}, "exactly one"),
        ],
    )
    def test_rejects(self, value: Any, schema: Any, message: str) -> None:
        with pytest.raises(ValueError, match=message):
            validate_json_schema(value, schema)

    def test_deep_values_are_bounded(self) -> None:
        value: Any = 1
        schema: Any = {"type": "integer"}
        for _ in range(200):
            value = [value]
            schema = {"type": "array", "items": schema}
        with pytest.raises(ValueError, match="too deeply"):
            validate_json_schema(value, schema)

    def test_bad_pattern_in_schema(self) -> None:
        with pytest.raises(ValueError, match="invalid pattern"):
            validate_json_schema("a", {"pattern": "("})


class TestRunTool:
    def test_sync_ok_and_output_checked(self) -> None:
        ts = echo_toolset()
        d = ts.definitions[0]
        assert run_tool(d, ts.handlers["echo"], {"text": "hi"}) == {"echo": "hi"}
        with pytest.raises(ValueError, match=r"\$\[echo\]\.echo is required"):
            run_tool(d, lambda p: {}, {"text": "hi"})
        with pytest.raises(ValueError, match=r"\$\[echo\]\.text must be of type 'string'"):
            run_tool(d, ts.handlers["echo"], {"text": 123})
        with pytest.raises(ValueError, match="payload must be an object"):
            run_tool(d, ts.handlers["echo"], ["text"])

    def test_async_handler(self) -> None:
        async def reverse(payload: dict[str, JsonValue]) -> JsonValue:
            await asyncio.sleep(0)
            return {"reversed": str(payload["text"])[::-1]}

        d = ToolDefinition(name="reverse", description="", input_schema={"type": "object"})
        assert run_tool(d, reverse, {"text": "drawer"}) == {"reversed": "reward"}

    def test_timeout_returns_promptly(self) -> None:
        def slow(payload: dict[str, JsonValue]) -> JsonValue:
            time.sleep(5)
            return {"ok": True}

        d = ToolDefinition(name="slow", description="", input_schema={"type": "object"}, timeout_ms=50)
        started = time.monotonic()
        with pytest.raises(ToolTimeout, match="timed out after 50 ms"):
            run_tool(d, slow, {})
        assert time.monotonic() - started < 4

    def test_handler_exception_propagates(self) -> None:
        def broken(payload: dict[str, JsonValue]) -> JsonValue:
            raise RuntimeError("kaput")

        d = ToolDefinition(name="broken", description="", input_schema={"type": "object"})
        with pytest.raises(RuntimeError, match="kaput"):
            run_tool(d, broken, {})

    def test_non_json_result(self) -> None:
        d = ToolDefinition(name="x", description="", input_schema={"type": "object"})
        with pytest.raises(ValueError, match="not JSON-serializable"):
            run_tool(d, lambda p: object(), {})
        with pytest.raises(ValueError, match="not JSON-serializable"):
            run_tool(d, lambda p: float("nan"), {})

    def test_to_json_value(self) -> None:
        import datetime
        import uuid

        u = uuid.UUID(int=1)
        assert to_json_value({"d": datetime.date(2024, 1, 2), "u": u, "s": {1}}) == {
            "d": "2024-01-02",
            "u": str(u),
            "s": [1],
        }
        with pytest.raises(ValueError, match="key 1 is not a string"):
            to_json_value({1: "a"})
