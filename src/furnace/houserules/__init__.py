"""House-rule modules laid over Furnace. Each registers its clock handlers and models when imported.

- `furnace.houserules.middle_sea`: the "House Rules for Middle Sea/Terra Ultima" (RULES.md PART M).

`furnace.play.clock.MODULES` names them and the clock imports them before it fires anything. A module's
healing model is in `furnace.play.rest.HEALING_MODELS` once the module has been imported.
"""
