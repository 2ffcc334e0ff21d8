"""The source the compiled roll writes for a kept total, shared by `compiled` and `common_groups`."""

from __future__ import annotations

SCALAR_DICE = 16        # a group of up to this many dice is drawn one statement a die; a larger one, in a loop


def kept_total(faces: list[str], kept: int, highest: bool) -> str:
    """The source of the total of the `kept` highest (lowest) of the faces' locals."""
    count, every = len(faces), ", ".join(faces)
    if count == 0 or kept == 0:
        return "0"
    if kept == count:
        return " + ".join(faces)
    if kept == 1:
        return f"{'max' if highest else 'min'}({every})"
    if kept == count - 1:
        return f"{' + '.join(faces)} - {'min' if highest else 'max'}({every})"
    return f"sum(sorted(({every},))[{count - kept}:])" if highest else f"sum(sorted(({every},))[:{kept}])"
