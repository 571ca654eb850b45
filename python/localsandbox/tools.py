"""Host tools for sandboxed Python: definitions, toolsets, schema inference.

A ``PythonToolset`` pairs ``ToolDefinition`` records (name, description, JSON
schemas, timeout) with handlers. Sandboxed code calls them with
``from host_tools import call, search``; every call crosses into the host,
where the payload is checked against the input schema, the handler runs
(sync or async, bounded by the tool's timeout) and its result is checked
against the output schema before it goes back.

``function_to_tool_definition`` infers a definition from a typed callable the
way the published package does with pydantic: the name from ``__name__``, the
description from the first docstring line, an input schema
``{"type": "object", "properties": ..., "required": [...],
"additionalProperties": False}`` with defaults kept and titles dropped,
``Optional`` as ``anyOf``, and ``Annotated[..., Field(...)]`` metadata
(description, bounds, lengths, pattern) kept. The inference is written here
against ``typing`` so that it needs no third-party package; ``Field`` objects
from pydantic (v1 or v2) or annotated_types are read by duck typing, and
``localsandbox.Field`` is a small stand-in for machines without pydantic.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import datetime
import decimal
import enum
import inspect
import json
import math
import pathlib
import re
import types
import typing
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

__all__ = [
    "Field",
    "FieldInfo",
    "JsonScalar",
    "JsonValue",
    "PythonToolset",
    "ToolCallable",
    "ToolDefinition",
    "ToolHandler",
    "ToolsetInput",
    "function_to_tool_definition",
    "functions_to_toolset",
    "resolve_toolset",
    "validate_json_schema",
]

JsonScalar = Union[str, int, float, bool, None]
JsonValue = Union[JsonScalar, list["JsonValue"], dict[str, "JsonValue"]]
ToolHandler = Callable[[dict[str, JsonValue]], Union[JsonValue, Awaitable[JsonValue]]]
ToolCallable = Callable[..., Any]

#: Nesting depth accepted by the schema generator and the validator; deeper
#: input is refused with ValueError rather than exhausting the stack.
MAX_SCHEMA_DEPTH = 64


@dataclass(frozen=True)
class ToolDefinition:
    """Definition of a host tool callable from sandboxed Python.

    Attributes:
        name: The name sandboxed code passes to ``host_tools.call``.
        description: One line telling a model what the tool does.
        input_schema: JSON Schema of the payload (an object).
        output_schema: JSON Schema of the result, or None for no check.
        timeout_ms: How long a call may run before it fails with a timeout.
    """

    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None = None
    timeout_ms: int = 30_000


@dataclass(frozen=True)
class PythonToolset:
    """A collection of tool definitions and their handlers.

    Attributes:
        definitions: The tools, in the order ``host_tools.search`` lists ties.
        handlers: One handler per definition name; a handler takes the
            payload dict and returns a JSON value (or an awaitable of one).
    """

    definitions: list[ToolDefinition]
    handlers: dict[str, ToolHandler]


ToolsetInput = Union[PythonToolset, Sequence[ToolCallable]]

# The tool names the library accepts.
_TOOL_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,255}")


class FieldInfo:
    """Schema metadata for ``Annotated[T, Field(...)]`` parameters.

    A stand-in for ``pydantic.Field`` on machines without pydantic; the
    inference reads pydantic's own ``Field`` objects the same way.
    """

    __slots__ = (
        "default",
        "description",
        "title",
        "examples",
        "ge",
        "gt",
        "le",
        "lt",
        "multiple_of",
        "min_length",
        "max_length",
        "pattern",
    )

    def __init__(self, **kwargs: Any) -> None:
        for name in self.__slots__:
            setattr(self, name, kwargs.get(name))

    def __repr__(self) -> str:
        items = ", ".join(
            f"{name}={getattr(self, name)!r}"
            for name in self.__slots__
            if getattr(self, name) is not None
        )
        return f"Field({items})"


def Field(  # noqa: N802 - named like pydantic.Field on purpose
    default: Any = None,
    *,
    description: str | None = None,
    title: str | None = None,
    examples: list[Any] | None = None,
    ge: float | None = None,
    gt: float | None = None,
    le: float | None = None,
    lt: float | None = None,
    multiple_of: float | None = None,
    min_length: int | None = None,
    max_length: int | None = None,
    pattern: str | None = None,
) -> Any:
    """Describe a tool parameter: ``Annotated[int, Field(ge=1, description=...)]``.

    Accepts the pydantic ``Field`` keywords that map to JSON Schema
    (description, examples, ge/gt/le/lt, multiple_of, min_length/max_length,
    pattern). ``title`` is accepted and dropped, as titles are everywhere.
    """
    return FieldInfo(
        default=default,
        description=description,
        title=title,
        examples=examples,
        ge=ge,
        gt=gt,
        le=le,
        lt=lt,
        multiple_of=multiple_of,
        min_length=min_length,
        max_length=max_length,
        pattern=pattern,
    )


# ---- schema inference ---------------------------------------------------------

_NONE_TYPES = (type(None), None)

_SIMPLE_SCHEMAS: dict[Any, dict[str, Any]] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    bytes: {"type": "string", "format": "binary"},
    datetime.datetime: {"type": "string", "format": "date-time"},
    datetime.date: {"type": "string", "format": "date"},
    datetime.time: {"type": "string", "format": "time"},
    datetime.timedelta: {"type": "string", "format": "duration"},
    uuid.UUID: {"type": "string", "format": "uuid"},
    pathlib.Path: {"type": "string", "format": "path"},
    decimal.Decimal: {"anyOf": [{"type": "number"}, {"type": "string"}]},
}


def _constraints(meta: Any, base: dict[str, Any]) -> dict[str, Any]:
    """JSON Schema keywords from one Annotated metadata object (duck typed:
    localsandbox.Field, pydantic v1/v2 FieldInfo, annotated_types)."""
    out: dict[str, Any] = {}
    is_array = base.get("type") == "array"
    objects = [meta]
    nested = getattr(meta, "metadata", None)  # pydantic v2 keeps constraints here
    if isinstance(nested, list):
        objects.extend(nested)
    for obj in objects:
        for attr, key in (
            ("ge", "minimum"),
            ("gt", "exclusiveMinimum"),
            ("le", "maximum"),
            ("lt", "exclusiveMaximum"),
            ("multiple_of", "multipleOf"),
            ("min_length", "minItems" if is_array else "minLength"),
            ("max_length", "maxItems" if is_array else "maxLength"),
            ("min_items", "minItems"),
            ("max_items", "maxItems"),
            ("pattern", "pattern"),
            ("regex", "pattern"),
        ):
            value = getattr(obj, attr, None)
            if value is None or isinstance(value, bool) and attr != "pattern":
                continue
            if attr in ("pattern", "regex"):
                value = getattr(value, "pattern", value)  # a compiled regex
                if not isinstance(value, str):
                    continue
            elif not isinstance(value, (int, float)):
                continue
            out[key] = value
    description = getattr(meta, "description", None)
    if isinstance(description, str):
        out["description"] = description
    examples = getattr(meta, "examples", None)
    if isinstance(examples, list) and examples:
        out["examples"] = examples
    extra = getattr(meta, "json_schema_extra", None)
    if isinstance(extra, dict):
        out.update(extra)
    return out


def _literal_schema(values: tuple[Any, ...]) -> dict[str, Any]:
    values = tuple(v.value if isinstance(v, enum.Enum) else v for v in values)
    kinds = {_json_type_name(v) for v in values}
    schema: dict[str, Any]
    if len(values) == 1:
        schema = {"const": values[0]}
    else:
        schema = {"enum": list(values)}
    if len(kinds) == 1:
        schema["type"] = kinds.pop()
    return schema


def _object_schema(fields: list[tuple[str, Any, bool, Any]], depth: int) -> dict[str, Any]:
    """An object schema from (name, annotation, required, default) tuples."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, annotation, is_required, default in fields:
        schema = type_to_schema(annotation, depth + 1)
        if is_required:
            required.append(name)
        else:
            schema["default"] = _jsonable_default(default)
        properties[name] = schema
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    return out


def _jsonable_default(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


def _strip_titles(schema: Any, depth: int = 0, names: bool = False) -> Any:
    """Drops "title" keywords (pydantic adds them everywhere). `names`: this
    dict maps property or definition names to schemas, so a property that
    happens to be called "title" is kept."""
    if depth > MAX_SCHEMA_DEPTH:
        raise ValueError("schema nesting is too deep")
    if isinstance(schema, list):
        return [_strip_titles(item, depth + 1) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        key: _strip_titles(
            value, depth + 1, not names and key in ("properties", "$defs", "definitions")
        )
        for key, value in schema.items()
        if names or key != "title"
    }


def type_to_schema(annotation: Any, depth: int = 0) -> dict[str, Any]:
    """The JSON Schema of a Python type annotation (titles never included).

    Raises:
        ValueError: nesting deeper than MAX_SCHEMA_DEPTH (a recursive type).
    """
    if depth > MAX_SCHEMA_DEPTH:
        raise ValueError("type annotation is nested too deeply (a recursive type?)")
    if annotation is Any or annotation is inspect.Parameter.empty or annotation is object:
        return {}
    if annotation in _NONE_TYPES:
        return {"type": "null"}
    if annotation in _SIMPLE_SCHEMAS:
        return dict(_SIMPLE_SCHEMAS[annotation])
    if isinstance(annotation, typing.ForwardRef) or isinstance(annotation, str):
        raise ValueError(f"unresolved forward reference {annotation!r}")

    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)

    if origin is typing.Annotated:
        base = type_to_schema(args[0], depth + 1)
        for meta in args[1:]:
            base.update(_constraints(meta, base))
        return base
    if origin is Union or (hasattr(types, "UnionType") and origin is types.UnionType):
        options = [type_to_schema(a, depth + 1) for a in args]
        return {"anyOf": options}
    if origin is typing.Literal:
        return _literal_schema(args)
    if annotation in (list, Sequence) or origin in (list, Sequence, typing.Sequence):
        if args:
            return {"type": "array", "items": type_to_schema(args[0], depth + 1)}
        return {"type": "array", "items": {}}
    if annotation in (set, frozenset) or origin in (set, frozenset):
        out = {"type": "array", "uniqueItems": True}
        out["items"] = type_to_schema(args[0], depth + 1) if args else {}
        return out
    if annotation is tuple or origin is tuple:
        if not args:
            return {"type": "array", "items": {}}
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": type_to_schema(args[0], depth + 1)}
        if args == ((),):
            return {"type": "array", "maxItems": 0}
        items = [type_to_schema(a, depth + 1) for a in args]
        return {"type": "array", "prefixItems": items, "minItems": len(items), "maxItems": len(items)}
    if annotation in (dict, Mapping) or origin in (dict, Mapping, typing.Mapping):
        out = {"type": "object"}
        if len(args) == 2:
            values = type_to_schema(args[1], depth + 1)
            if values:
                out["additionalProperties"] = values
        return out
    if isinstance(annotation, type):
        if issubclass(annotation, enum.Enum):
            return _literal_schema(tuple(annotation)) if len(annotation) != 1 else {
                "enum": [m.value for m in annotation]
            }
        if issubclass(annotation, bool):
            return {"type": "boolean"}
        for simple, schema in _SIMPLE_SCHEMAS.items():
            if isinstance(simple, type) and issubclass(annotation, simple):
                return dict(schema)
        if dataclasses.is_dataclass(annotation):
            hints = typing.get_type_hints(annotation, include_extras=True)
            fields = []
            for f in dataclasses.fields(annotation):
                if not f.init:
                    continue
                has_default = f.default is not dataclasses.MISSING
                has_factory = f.default_factory is not dataclasses.MISSING  # type: ignore[misc]
                default = f.default if has_default else (
                    f.default_factory() if has_factory else None  # type: ignore[misc]
                )
                fields.append((f.name, hints.get(f.name, Any), not (has_default or has_factory), default))
            return _object_schema(fields, depth)
        if typing.is_typeddict(annotation):
            hints = typing.get_type_hints(annotation, include_extras=True)
            required_keys = getattr(annotation, "__required_keys__", frozenset(hints))
            fields = [(k, v, k in required_keys, None) for k, v in hints.items()]
            schema = _object_schema(fields, depth)
            for k in hints:
                if k not in required_keys:
                    schema["properties"][k].pop("default", None)
            return schema
        model_schema = getattr(annotation, "model_json_schema", None)  # pydantic v2
        if model_schema is None:
            model_schema = getattr(annotation, "schema", None)  # pydantic v1
            if model_schema is not None and not hasattr(annotation, "__fields__"):
                model_schema = None
        if callable(model_schema):
            return _strip_titles(model_schema())
    raise ValueError(f"cannot derive a JSON schema for {annotation!r}")


def _docstring_summary(fn: object) -> str:
    doc = inspect.getdoc(fn)
    if not doc:
        return ""
    return doc.strip().splitlines()[0].strip()


def _tool_name(fn: Any) -> str:
    name = getattr(fn, "__name__", None)
    if not isinstance(name, str) or not name:
        raise TypeError(f"tool callable {fn!r} has no __name__")
    return name


def function_to_tool_definition(fn: ToolCallable) -> ToolDefinition:
    """Build a ToolDefinition from a callable's name, docstring and type hints.

    Every parameter needs a type hint and must be positional-or-keyword or
    keyword-only; parameters with defaults are optional and keep the default
    in their schema. The return annotation, if any, gives the output schema.

    Raises:
        TypeError: ``fn`` is not callable.
        ValueError: a parameter has no type hint, is ``*args``/``**kwargs``,
            or has a type with no JSON Schema.
    """
    if not callable(fn):
        raise TypeError(f"tool must be callable, not {type(fn).__name__}")
    name = _tool_name(fn)
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"Tool {name!r} has no inspectable signature: {exc}") from exc
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception as exc:  # NameError for unresolved forward references
        raise ValueError(f"Tool {name!r} has unresolvable type hints: {exc}") from exc

    properties: dict[str, Any] = {}
    required: list[str] = []
    for pname, parameter in signature.parameters.items():
        if pname in ("self", "cls"):
            continue
        if parameter.kind not in (
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            inspect.Parameter.KEYWORD_ONLY,
        ):
            raise ValueError(
                f"Tool {name!r} parameter {pname!r} must be positional/keyword or keyword-only"
            )
        if pname not in hints:
            raise ValueError(f"Tool {name!r} parameter {pname!r} is missing a type hint")
        try:
            schema = _strip_titles(type_to_schema(hints[pname]))
        except ValueError as exc:
            raise ValueError(f"Tool {name!r} parameter {pname!r}: {exc}") from exc
        if parameter.default is inspect.Parameter.empty:
            required.append(pname)
        else:
            schema["default"] = _jsonable_default(parameter.default)
        properties[pname] = schema

    output_schema = None
    if "return" in hints:
        try:
            output_schema = _strip_titles(type_to_schema(hints["return"]))
        except ValueError as exc:
            raise ValueError(f"Tool {name!r} return type: {exc}") from exc

    return ToolDefinition(
        name=name,
        description=_docstring_summary(fn),
        input_schema={
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        },
        output_schema=output_schema,
    )


def to_json_value(value: Any, depth: int = 0) -> JsonValue:
    """Converts a handler's result to plain JSON values (dataclasses, enums,
    tuples, sets, dates, UUIDs, paths, pydantic models).

    Raises:
        ValueError: a value with no JSON form, or nesting deeper than
            MAX_SCHEMA_DEPTH.
    """
    if depth > MAX_SCHEMA_DEPTH:
        raise ValueError("Value is nested too deeply")
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"Value is not JSON-serializable: {value!r}")
        return value
    if isinstance(value, enum.Enum):
        return to_json_value(value.value, depth + 1)
    if isinstance(value, Mapping):
        out: dict[str, JsonValue] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise ValueError(f"Value is not JSON-serializable: key {k!r} is not a string")
            out[k] = to_json_value(v, depth + 1)
        return out
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_json_value(v, depth + 1) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json_value(getattr(value, f.name), depth + 1) for f in dataclasses.fields(value)}
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (uuid.UUID, pathlib.PurePath, decimal.Decimal)):
        return str(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    dump = getattr(value, "model_dump", None)  # pydantic v2
    if callable(dump):
        return to_json_value(dump(mode="json"), depth + 1)
    dump = getattr(value, "dict", None)  # pydantic v1
    if callable(dump) and hasattr(value, "__fields__"):
        return to_json_value(dump(), depth + 1)
    raise ValueError(f"Value is not JSON-serializable: {type(value).__name__}")


def functions_to_toolset(functions: Sequence[ToolCallable]) -> PythonToolset:
    """Build a PythonToolset from typed callables (sync or async).

    Each handler checks the payload against the inferred input schema, calls
    the function with the payload as keyword arguments, and converts the
    result to JSON values.

    Raises:
        TypeError: ``functions`` is not a sequence of callables.
        ValueError: a callable cannot be described (see
            function_to_tool_definition), or two share a name.
    """
    if isinstance(functions, (str, bytes)) or not isinstance(functions, Sequence):
        raise TypeError("toolset must be a PythonToolset or a sequence of callables")
    functions = list(functions)
    if not all(callable(fn) for fn in functions):
        raise TypeError("toolset sequences must contain only callables")
    definitions = [function_to_tool_definition(fn) for fn in functions]
    seen: set[str] = set()
    for d in definitions:
        if d.name in seen:
            raise ValueError(f"Duplicate tool definition: {d.name}")
        seen.add(d.name)

    def build(fn: ToolCallable, definition: ToolDefinition) -> ToolHandler:
        def handler(payload: dict[str, JsonValue]) -> Any:
            validate_json_schema(payload, definition.input_schema, f"$[{definition.name}]")
            result = fn(**payload)
            if inspect.isawaitable(result):

                async def finish() -> JsonValue:
                    return to_json_value(await result)

                return finish()
            return to_json_value(result)

        handler.__name__ = definition.name
        handler.__doc__ = definition.description
        return handler

    return PythonToolset(
        definitions=definitions,
        handlers={d.name: build(fn, d) for d, fn in zip(definitions, functions)},
    )


def resolve_toolset(
    toolset: ToolsetInput | None,
) -> tuple[dict[str, ToolDefinition], dict[str, ToolHandler]] | None:
    """Checks a toolset argument and returns name-indexed definitions and
    handlers (None for no toolset). Everything is checked before any code
    runs.

    Raises:
        TypeError: not a PythonToolset or a sequence of callables, or fields
            of the wrong type.
        ValueError: duplicate names, non-positive timeouts, handlers without
            definitions or definitions without handlers.
    """
    if toolset is None:
        return None
    if not isinstance(toolset, PythonToolset):
        toolset = functions_to_toolset(toolset)  # type: ignore[arg-type]
    if not isinstance(toolset.definitions, (list, tuple)):
        raise TypeError("PythonToolset.definitions must be a list of ToolDefinition")
    if not isinstance(toolset.handlers, Mapping):
        raise TypeError("PythonToolset.handlers must be a dict of name -> handler")
    definitions: dict[str, ToolDefinition] = {}
    for d in toolset.definitions:
        if not isinstance(d, ToolDefinition):
            raise TypeError(f"PythonToolset.definitions must hold ToolDefinition, not {type(d).__name__}")
        if not isinstance(d.name, str) or not d.name:
            raise TypeError("ToolDefinition.name must be a non-empty str")
        if not _TOOL_NAME.fullmatch(d.name):
            raise ValueError(
                f"Tool name {d.name[:60]!r} must be 1 to 255 letters, digits, '_', '.' or '-'"
            )
        if not isinstance(d.description, str):
            raise TypeError(f"Tool {d.name!r} description must be a str")
        if not isinstance(d.input_schema, dict):
            raise TypeError(f"Tool {d.name!r} input_schema must be a dict")
        if d.output_schema is not None and not isinstance(d.output_schema, dict):
            raise TypeError(f"Tool {d.name!r} output_schema must be a dict or None")
        if isinstance(d.timeout_ms, bool) or not isinstance(d.timeout_ms, (int, float)):
            raise TypeError(f"Tool {d.name!r} timeout_ms must be a number")
        if d.name in definitions:
            raise ValueError(f"Duplicate tool definition: {d.name}")
        if not d.timeout_ms > 0:
            raise ValueError(f"Tool {d.name!r} must have a positive timeout_ms")
        try:
            json.dumps(d.input_schema)
            json.dumps(d.output_schema)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"Tool {d.name!r} schemas must be JSON: {exc}") from exc
        definitions[d.name] = d
    handlers = dict(toolset.handlers)
    missing = [n for n in definitions if n not in handlers]
    if missing:
        raise ValueError(f"Missing handlers for tools: {', '.join(sorted(missing))}")
    extra = [n for n in handlers if n not in definitions]
    if extra:
        raise ValueError(
            f"Handlers declared without matching tool definitions: {', '.join(sorted(map(str, extra)))}"
        )
    for n, h in handlers.items():
        if not callable(h):
            raise TypeError(f"Handler for tool {n!r} is not callable")
    return definitions, handlers


# ---- validation ------------------------------------------------------------------


# The JSON type of a Python value, first match (bool before int: it is one).
_JSON_TYPE_NAMES = (
    (type(None), "null"),
    (bool, "boolean"),
    (int, "integer"),
    (float, "number"),
    (str, "string"),
    (list, "array"),
    (dict, "object"),
)


def _json_type_name(value: object) -> str:
    for kind, name in _JSON_TYPE_NAMES:
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _check_size(path: str, size: int, schema: dict[str, Any], low: str, high: str, unit: str) -> None:
    """The bounds ``schema[low]`` and ``schema[high]`` (minLength/maxLength,
    minItems/maxItems) on ``size``, a string's or an array's length."""
    if low in schema and size < schema[low]:
        raise ValueError(f"{path} must have at least {schema[low]} {unit}")
    if high in schema and size > schema[high]:
        raise ValueError(f"{path} must have at most {schema[high]} {unit}")


def _matches_type(value: Any, kind: str) -> bool:
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and value.is_integer()
        )
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "string":
        return isinstance(value, str)
    if kind == "null":
        return value is None
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    return True  # unknown type names do not constrain


def validate_json_schema(value: Any, schema: Any, path: str = "$", depth: int = 0) -> None:
    """Checks a JSON value against a JSON Schema subset.

    Supported: type, enum, const, properties, required,
    additionalProperties, items, prefixItems, anyOf, oneOf, allOf,
    minimum/maximum (and exclusive), multipleOf, minLength/maxLength,
    pattern, minItems/maxItems, uniqueItems. Other keywords are ignored.

    Raises:
        ValueError: the first mismatch, as "PATH must ..." text.
    """
    if depth > MAX_SCHEMA_DEPTH:
        raise ValueError(f"{path} is nested too deeply")
    if schema is True or schema is None:
        return
    if schema is False:
        raise ValueError(f"{path} is not allowed")
    if not isinstance(schema, dict):
        return
    if "enum" in schema and value not in schema["enum"]:
        raise ValueError(f"{path} must be one of {schema['enum']!r}")
    if "const" in schema and value != schema["const"]:
        raise ValueError(f"{path} must be {schema['const']!r}")
    kind = schema.get("type")
    if kind is not None:
        kinds = kind if isinstance(kind, list) else [kind]
        if not any(_matches_type(value, k) for k in kinds):
            expected = kinds if len(kinds) > 1 else kinds[0]
            raise ValueError(f"{path} must be of type {expected!r}, got {_json_type_name(value)!r}")
    if "anyOf" in schema:
        errors = []
        for option in schema["anyOf"]:
            try:
                validate_json_schema(value, option, path, depth + 1)
                break
            except ValueError as exc:
                errors.append(str(exc))
        else:
            raise ValueError(f"{path} matches none of the allowed schemas ({'; '.join(errors)})")
    if "oneOf" in schema:
        ok = 0
        for option in schema["oneOf"]:
            try:
                validate_json_schema(value, option, path, depth + 1)
                ok += 1
            except ValueError:
                pass
        if ok != 1:
            raise ValueError(f"{path} must match exactly one schema of oneOf (matched {ok})")
    for option in schema.get("allOf", ()):
        validate_json_schema(value, option, path, depth + 1)

    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            raise ValueError(f"{path} must be >= {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            raise ValueError(f"{path} must be <= {schema['maximum']}")
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            raise ValueError(f"{path} must be > {schema['exclusiveMinimum']}")
        if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
            raise ValueError(f"{path} must be < {schema['exclusiveMaximum']}")
        step = schema.get("multipleOf")
        if isinstance(step, (int, float)) and step > 0 and not math.isclose(
            value / step, round(value / step), abs_tol=1e-9
        ):
            raise ValueError(f"{path} must be a multiple of {step}")
    elif isinstance(value, str):
        _check_size(path, len(value), schema, "minLength", "maxLength", "characters")
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            try:
                matched = re.search(pattern, value) is not None
            except re.error as exc:
                raise ValueError(f"{path}: invalid pattern {pattern!r} in schema: {exc}") from exc
            if not matched:
                raise ValueError(f"{path} must match pattern {pattern!r}")
    elif isinstance(value, dict):
        properties = schema.get("properties", {})
        for key in schema.get("required", ()):
            if key not in value:
                raise ValueError(f"{path}.{key} is required")
        additional = schema.get("additionalProperties", True)
        for key, item in value.items():
            if isinstance(properties, dict) and key in properties:
                validate_json_schema(item, properties[key], f"{path}.{key}", depth + 1)
            elif additional is False:
                raise ValueError(f"{path}.{key} is not allowed")
            elif isinstance(additional, dict):
                validate_json_schema(item, additional, f"{path}.{key}", depth + 1)
    elif isinstance(value, list):
        _check_size(path, len(value), schema, "minItems", "maxItems", "items")
        prefix = schema.get("prefixItems")
        start = 0
        if isinstance(prefix, list):
            for i, (item, sub) in enumerate(zip(value, prefix)):
                validate_json_schema(item, sub, f"{path}[{i}]", depth + 1)
            start = len(prefix)
        items = schema.get("items")
        if isinstance(items, dict):
            for i in range(start, len(value)):
                validate_json_schema(value[i], items, f"{path}[{i}]", depth + 1)
        if schema.get("uniqueItems"):
            seen = []
            for item in value:
                if item in seen:
                    raise ValueError(f"{path} must have unique items")
                seen.append(item)


# ---- running a handler -------------------------------------------------------------


class ToolTimeout(Exception):
    """A handler ran past its definition's timeout_ms (internal)."""


def call_handler(handler: ToolHandler, payload: Any) -> JsonValue:
    """Calls a handler (an async one in a fresh event loop) and converts its
    result to JSON values. Exceptions propagate."""
    result = handler(payload)
    if inspect.isawaitable(result):

        async def wait() -> Any:
            return await result

        result = asyncio.run(wait())
    return to_json_value(result)


def run_tool(definition: ToolDefinition, handler: ToolHandler, payload: Any) -> JsonValue:
    """Runs one tool call on the host: validate the payload, run the handler
    in a worker thread bounded by timeout_ms (an async handler in its own
    event loop there), convert and validate the result.

    Raises:
        ValueError: the payload or result does not fit the schemas (the
            bridge reports it as a validation_error).
        ToolTimeout: the handler did not finish in time; it keeps running in
            its thread but its result is dropped.
        Exception: whatever the handler raised (an internal_error).
    """
    if not isinstance(payload, dict):
        raise ValueError(f"Tool {definition.name!r} payload must be an object")
    validate_json_schema(payload, definition.input_schema, f"$[{definition.name}]")
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="sbx-tool")
    try:
        future = executor.submit(call_handler, handler, payload)
        try:
            result = future.result(timeout=definition.timeout_ms / 1000)
        except concurrent.futures.TimeoutError as exc:
            future.cancel()
            raise ToolTimeout(
                f"Tool {definition.name!r} timed out after {definition.timeout_ms} ms"
            ) from exc
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
    if definition.output_schema is not None:
        validate_json_schema(result, definition.output_schema, f"$[{definition.name}]")
    return result
