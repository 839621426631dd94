# A package with an __init__.py: its names are the package's attributes.
VERSION = 3
