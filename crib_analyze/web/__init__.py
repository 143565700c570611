"""The local page (``crib-analyze serve``): a small web app on the same front door as
the command line. :mod:`~crib_analyze.web.app` serves the page and its JSON API
(``/api/...``): each endpoint takes the parameters of one API function, makes the same
request, and answers with the rows the command's ``--format json`` prints, the result's
own words (verdict, notes) and the command's text view. Needs the ``web`` extra."""
