"""The data crib-analyze ships (read with importlib.resources as ``crib_analyze.data``;
see README.md here). This folder is built into the wheel as that package."""
