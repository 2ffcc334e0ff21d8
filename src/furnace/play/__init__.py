"""The engine: checks, luck, skills, encounters (attacks, crits, fumbles, conditions, death), rests and the
clock, with the registries through which the chapters (magic, hazards, house rules) plug in their actions,
modifiers, death and healing models, fight hooks and clock handlers. The engine imports no chapter.
"""
