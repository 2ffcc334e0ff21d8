"""The model: characters and how they are made — abilities, races, the 0-level funnel, promotion and
advancement, equipment and load, XP. Values only; playing them is `furnace.play`'s.
"""
