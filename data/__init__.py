"""The data crib-analyze ships, as the package ``crib_analyze.data`` (read by
:func:`crib_analyze.settings.packaged`; see README.md here). This folder is built into
the wheel as that package."""
