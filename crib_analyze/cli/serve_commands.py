"""``crib-analyze serve``: the local page, from one warm process."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import time

import click

from crib_analyze import interrupts
from crib_analyze.cli.options import count_option
from crib_analyze.cli.output import Interrupted, note
from crib_analyze.settings import LOOPBACK_HOSTS, WEB_HOST, WEB_PORT

#: what the page's first answers need compiled and loaded, warmed before it opens
WARM_UP = (
    ("the throws", "discard", {"cards": "5H 6S 4D JC QH 5C", "role": "dealer"}),
    ("a distribution", "discard",
     {"cards": "5H 6S 4D JC QH 5C", "role": "dealer", "distribution": True}),
    ("the play", "play", {"seat": "pone", "cards": "7C 8D 2C", "starter": "5H",
                          "played": "3D 10S"}),
    ("the board", "odds", {"scores": [95, 100], "dealer": True}),
)  # fmt: skip


@click.command()
@click.option(
    "--host",
    default=WEB_HOST,
    show_default=True,
    help="The address to listen on; anything but this machine is warned about.",
)
@count_option("--port", setting=WEB_PORT, help="The port to listen on.")
@click.option("--open", "open_page", is_flag=True, help="Open the page in a web browser.")
def serve(host: str, port: int, open_page: bool) -> None:
    """Serve the page: throws, the play, the board, reviews and the trainers, in a browser.

    Starts a local web server (it needs the web extra: pip install
    'crib-analyze[web]'), warms the kernels so no answer waits on a compile, and prints
    the address. The page asks the same API as the commands and shows the same
    verdicts; its JSON API is under /api/ (docs/web.md). Ctrl-C stops it.

    \b
    Examples:
      crib-analyze serve
      crib-analyze serve --port 8200 --open
    """
    try:
        import uvicorn  # noqa: F401 (the extra is installed)

        from crib_analyze.web.app import create_app
    except ImportError:
        raise click.ClickException(
            "serve needs the web extra: pip install 'crib-analyze[web]'"
        ) from None
    hosts, loopback = served_hosts(host)
    if not loopback:
        note(f"warning: listening on {host or 'every address'}: other machines can reach the page")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
        sock.listen(128)  # another server on the port shows here (bind may pass)
    except OSError as e:
        sock.close()
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror}") from None
    app = create_app(hosts)
    warm()
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{'localhost' if loopback else shown}:{port}/"
    click.echo(f"crib-analyze serves the page at {address} (Ctrl-C stops it)")
    if open_page:
        import webbrowser

        webbrowser.open(address)
    with sock:
        stopped_by_ctrl_c = run_server(app, sock)
    if stopped_by_ctrl_c:
        raise Interrupted("the server stopped")
    note("the server stopped")


def served_hosts(host: str) -> tuple[tuple[str, ...], bool]:
    """The Host header names a server bound to ``host`` answers to (this machine's
    names, and the address bound; for every address, this machine's name and addresses
    too), and whether the address is this machine's alone (a loopback address)."""
    bare = host.strip("[]")
    wildcard = bare in ("", "0.0.0.0", "::")
    try:
        found = {str(a[4][0]) for a in socket.getaddrinfo(bare or None, None)}
    except (OSError, UnicodeError):
        found = set()
    loopback = bool(found) and not wildcard and all(_is_loopback(a) for a in found)
    names = [*LOOPBACK_HOSTS, bare, f"[{bare}]" if ":" in bare else bare]
    if wildcard:
        name = socket.gethostname()
        names += [name, socket.getfqdn()]
        with contextlib.suppress(OSError, UnicodeError):
            for a in socket.getaddrinfo(name, None):
                address = str(a[4][0])
                names.append(f"[{address}]" if ":" in address else address)
    return tuple(dict.fromkeys(n for n in names if n)), loopback


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


def run_server(app: object, sock: socket.socket) -> bool:
    """Serve ``app`` on the listening ``sock`` until told to stop; True when Ctrl-C
    stopped it (uvicorn hears it, stops, then passes it on)."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", lifespan="off")  # type: ignore[arg-type]
    try:
        with interrupts.immediate():
            uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        return True
    return False


def warm() -> None:
    """Answer one request of each kind before the page opens (the first compiles)."""
    from crib_analyze.api import prefer_kernels
    from crib_analyze.web.endpoints import ENDPOINTS

    prefer_kernels()  # a server answers every hand from the kernels, compiled now
    for what, name, body in WARM_UP:
        start = time.time()
        note(f"warming up: {what}...")
        ENDPOINTS[name](dict(body))
        note(f"warming up: {what} ready ({time.time() - start:.1f} s)")
        interrupts.check()  # Ctrl-C during the warm-up stops it here
