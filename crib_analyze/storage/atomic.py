"""Files that appear whole or not at all, written where the user pointed.

:func:`atomic_open` writes a temp file beside the target, then renames it over the
target, so a reader never sees half a file. It writes *through* the path the user gave:

* a symlink (or a chain of them) is followed to its final target, and the temp file is
  renamed over that target, never over the link;
* a target that is a device, a pipe or a socket (``/dev/stdout``, ``/dev/null``, a FIFO,
  ``/proc/self/fd/1`` pointing at a terminal or a pipe), and anything under ``/dev`` or
  ``/proc``, is written in place: it cannot be replaced, and it was asked for on purpose;
* ``/proc/self/fd/N`` (and ``/dev/stdout``, ``/dev/fd/N``) naming an open regular file,
  such as standard output redirected to a file, is written in place through that open
  descriptor, so the redirection receives the data.

:func:`check_output` makes the checks a writer needs before any work (the folder exists
and takes a new file, the target is not a folder), so a bad ``-o`` fails in the first
second. Temp files are named ``.NAME.PID.RANDOM.tmp``; :func:`remove_leftovers` deletes
those an earlier, killed run left beside a target, when their process is gone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from crib_analyze import interrupts
from crib_analyze.errors import StorageError, UsageError, describe_os_error

_SPECIAL_ROOTS = ("/dev", "/proc")
_FD_PATH = re.compile(r"^/(?:proc/self|proc/\d+|dev)/fd/(\d+)$|^/dev/(stdout|stderr)$")


def resolve_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` must land in: symlinks followed to their final
    target (which need not exist yet); an absolute path. A StorageError for a loop of
    symlinks (a write must never replace the link itself)."""
    final = os.path.realpath(os.path.expanduser(os.fspath(path)))
    try:
        os.stat(final)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise StorageError(f"cannot write {path}: a loop of symbolic links") from None
    return Path(final)


#: (major, minor) of the Linux device that fails every write with "no space left"
_FULL_DEVICE = (1, 7)


def _refuses_writes(st: os.stat_result) -> bool:
    """True for a device known to fail every write (``/dev/full``): found before the work,
    since an empty write to it succeeds."""
    if not stat.S_ISCHR(st.st_mode):
        return False
    return (os.major(st.st_rdev), os.minor(st.st_rdev)) == _FULL_DEVICE


def descriptor_of(path: str | os.PathLike[str]) -> int | None:
    """The open descriptor ``path`` names, if it is one (``/dev/stdout``, ``/dev/fd/N``,
    ``/proc/self/fd/N``) or a chain of links through one; else None."""
    p = os.path.abspath(os.path.expanduser(os.fspath(path)))
    for _ in range(40):  # the kernel's own limit on links followed
        m = _FD_PATH.match(p)
        if m:
            if m.group(2):
                return 1 if m.group(2) == "stdout" else 2
            if p.startswith("/proc/") and not p.startswith(
                ("/proc/self/", f"/proc/{os.getpid()}/")
            ):
                return None  # another process's descriptor
            return int(m.group(1))
        if not os.path.islink(p):
            return None
        p = os.path.normpath(os.path.join(os.path.dirname(p), os.readlink(p)))
    return None


def writes_in_place(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` must be written in place: an open descriptor, anything under
    /dev or /proc, or (after its links) a device, a pipe or a socket."""
    if descriptor_of(path) is not None:
        return True
    given = os.path.abspath(os.path.expanduser(os.fspath(path)))
    target = resolve_target(path)
    if any(str(p) == r or str(p).startswith(r + "/") for p in (Path(given), target)
           for r in _SPECIAL_ROOTS):  # fmt: skip
        return True
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def check_output(path: str | os.PathLike[str]) -> Path:
    """Check before any work that ``path`` can take a file: a UsageError for an empty
    name or a folder, a StorageError (one line) for a folder that does not exist or
    refuses a new file (read-only, full, not a folder). Returns the resolved target."""
    if not os.fspath(path).strip():
        raise UsageError("the output file name is empty")
    target = resolve_target(path)
    if target.is_dir():
        raise UsageError(f"{path} is a folder; give a file name")
    if writes_in_place(path):
        fd = descriptor_of(path)
        try:
            if fd is not None:
                os.write(fd, b"")  # a closed or read-only descriptor says so
                full = _refuses_writes(os.fstat(fd))
            elif _is_fifo_or_socket(target):  # opening would wait for the other end
                if not os.access(target, os.W_OK):
                    raise PermissionError(13, "Permission denied", os.fspath(path))
                full = False
            else:
                with open(path, "ab") as fh:
                    full = _refuses_writes(os.fstat(fh.fileno()))
            if full:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        except OSError as e:
            raise StorageError(f"cannot write {path}: {describe_os_error(e)}") from None
        return target
    folder = target.parent
    if not folder.is_dir():
        reason = "not a folder" if folder.exists() else "no such folder"
        raise StorageError(f"cannot write {path}: {reason}: {folder}")
    probe = folder / f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        with open(probe, "wb") as fh:
            fh.write(b"\0" * 4096)  # a block: a full disk says so now, not after the work
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as e:  # the probe's own name would only confuse: name the folder
        reason = e.strerror or describe_os_error(e)
        raise StorageError(f"cannot write {path}: {reason} (creating a file in {folder})") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(probe)
    return target


def _is_fifo_or_socket(path: Path) -> bool:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def temp_name(target: Path) -> Path:
    """A temp file's name beside ``target``, marked with this process."""
    return target.with_name(f".{target.name}.{os.getpid()}.{os.urandom(6).hex()}.tmp")


def remove_leftovers(target: str | os.PathLike[str]) -> list[Path]:
    """Delete the temp files that killed runs left beside ``target`` (those whose
    process no longer runs); returns them."""
    final = resolve_target(target)
    pattern = re.compile(rf"^\.{re.escape(final.name)}\.(\d+)\.[0-9a-f]+\.tmp$")
    removed = []
    with contextlib.suppress(OSError):
        for entry in final.parent.iterdir():
            m = pattern.match(entry.name)
            if m and not _running(int(m.group(1))):
                with contextlib.suppress(OSError):
                    entry.unlink()
                    removed.append(entry)
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: it runs
        return True
    return True


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "w") -> Iterator[IO[Any]]:
    """Open a temp file beside the final target of ``path``; on success rename it over
    that target (see the module's rules for links, devices and descriptors).

    On any exception the temp file is removed and the target is left untouched.
    """
    encoding = None if "b" in mode else "utf-8"
    fd = descriptor_of(path)
    if fd is not None:  # through the open descriptor itself, at its offset
        with os.fdopen(os.dup(fd), mode.replace("w", "a"), encoding=encoding) as fh:
            yield fh
        return
    if writes_in_place(path):  # a device, pipe or socket: in place
        with interrupts.at_once():  # opening a FIFO waits for a reader: Ctrl-C is heard
            fh = open(path, mode, encoding=encoding)  # noqa: SIM115 (closed just below)
        with fh:
            yield fh
        return
    target = resolve_target(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(target)
    tmp = temp_name(target)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, mode, encoding=encoding) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # created 0600; give the usual permissions
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically."""
    with atomic_open(path, "w") as fh:
        fh.write(text)


def is_temp_file(path: Path) -> bool:
    """True for a temp file of :func:`atomic_open` (never a result to read)."""
    return bool(re.match(r"^\..+\.\d+\.[0-9a-f]+\.tmp$", path.name))
