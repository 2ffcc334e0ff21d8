"""The magic chapter: the SPELLCHECK, spells as data, casting rules on the character, casting in fights,
mishaps and disapproval, magic items, and the spell and item builders.
"""
