"""Build step for the one optional C helper; everything else is in pyproject.toml.

duelhost._chunkcache keeps the interpreter's freed frame-stack chunks for reuse
(duelhost/_chunkcache.c, benchmarks/README.md).  It is optional: without a C compiler
or the Python headers the build skips it and duelhost runs as pure Python.
"""
from setuptools import Extension, setup

setup(ext_modules=[Extension("duelhost._chunkcache", ["duelhost/_chunkcache.c"], optional=True)])
