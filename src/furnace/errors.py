"""One root exception for users' errors; interfaces translate it at the edge (exit code 2, HTTP 4xx)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pathlib costs ~10 ms of start-up on the roll path
    from pathlib import Path


class FurnaceError(Exception):
    """A user's error: bad input, a malformed file, an illegal action. Anything else is a bug.

    Its message is the referee's (the CLI's user is the referee). `code` names the kind of mistake and
    `public`, when given, is a wording any viewer may read (it names only what every viewer knows and never
    repeats her input); the table console answers a player or an observer with `public`, or with its
    code's plain wording, never with the message."""

    exit_code = 2
    http_status = 400
    public: str | None = None

    @property
    def code(self) -> str:
        """The kind of mistake: `unknown_name`, `illegal_action` … (the class's name in snake case)."""
        name = type(self).__name__.removesuffix("Error") or "Furnace"
        return "".join(f"_{ch.lower()}" if ch.isupper() else ch for ch in name).lstrip("_")

    def for_all(self, public: str) -> FurnaceError:
        """The same error with a wording any viewer may read."""
        self.public = public
        return self

    def to_dict(self) -> dict[str, object]:
        return {"error": type(self).__name__, "code": self.code, "message": str(self)}


class DiceError(FurnaceError):
    """A dice expression that cannot be parsed or rolled."""

    def __init__(self, message: str, expression: str = "", position: int | None = None,
                 expected: str | None = None) -> None:
        self.expression = expression
        self.position = position
        self.expected = expected
        where = f" at position {position}" if position is not None else ""
        want = f" (expected {expected})" if expected else ""
        super().__init__(f"{message}{where}{want} in {expression!r}" if expression else message + want)

    def to_dict(self) -> dict[str, object]:
        return {**super().to_dict(), "expression": self.expression, "position": self.position,
                "expected": self.expected}


class DiceSyntaxError(DiceError):
    """The expression does not follow the dice grammar."""


class DiceLimitError(DiceError):
    """The expression is too long or rolls too many dice."""


class UnboundVariableError(DiceError):
    """The expression names a variable the caller did not bind."""


class DataFileError(FurnaceError):
    """A data file (table, profile, archetype...) that does not validate."""

    def __init__(self, path: str | Path, reason: str, row: int | str | None = None) -> None:
        self.path = str(path)
        self.row = row
        self.reason = reason
        at = f", row {row}" if row is not None else ""
        super().__init__(f"{self.path}{at}: {reason}")

    def to_dict(self) -> dict[str, object]:
        return {**super().to_dict(), "path": self.path, "row": self.row, "reason": self.reason}


class UnknownNameError(FurnaceError):
    """A table, option, profile or other named thing that does not exist."""

    http_status = 404

    def __init__(self, kind: str, name: str, known: list[str] | None = None) -> None:
        self.kind = kind
        self.name = name
        hint = ""
        if known:
            close = [k for k in known if name.lower() in k.lower()][:5]
            hint = f"; did you mean {', '.join(close)}?" if close else f"; known: {', '.join(known[:12])}…"
        super().__init__(f"unknown {kind} {name!r}{hint}")


class RuleOptionError(FurnaceError):
    """A rule option set to a value it does not accept."""


class IllegalActionError(FurnaceError):
    """An action the rules do not allow in the current state (the state is left unchanged)."""

    http_status = 409


def from_validation(path: str | Path, exc: Exception, row: int | str | None = None) -> DataFileError:
    """A pydantic ValidationError as a DataFileError naming the file and the first field that is wrong."""
    errors = getattr(exc, "errors", lambda: [{"loc": (), "msg": str(exc)}])()
    first = errors[0]
    field = ".".join(str(x) for x in first["loc"])
    message = str(first["msg"]).removeprefix("Value error, ")
    return DataFileError(path, f"field {field}: {message}" if field else message, row)
