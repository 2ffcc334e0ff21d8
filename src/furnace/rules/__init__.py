"""The foundation's rules as data: tables, rule options and profiles, the effect schema, the data-file reader.

Nothing here knows a character or a fight: these modules load and validate `furnace/data/**.yaml` (and a
referee's own files) into immutable values that the layers above read.
"""
