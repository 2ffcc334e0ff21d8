"""The campaign: the roster, the clock's state, encounters in progress and the log, kept between commands.
"""
