"""Renderers shared by the interfaces: terminal text, Markdown and printable HTML sheets, fight logs.

Below the CLI and the web console, above the campaign: pure functions from values to text.
"""
