"""nginx in front of the replicas: where its binary is, Streamlit's static files copied and pre-compressed for it,
and its config filled in from deploy/nginx.conf.template (upstreams, sticky cookie, trusted proxies, its user).
"""

from __future__ import annotations

import gzip
import ipaddress
import os
import pwd
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "deploy" / "nginx.conf.template"
COMPRESS = {".js", ".mjs", ".css", ".html", ".json", ".map", ".svg", ".txt"}
# Characters a path in the nginx config may not hold: the config quotes every path ("..."), so a space, ; { } # are
# fine, but a quote or backslash would end or escape the quoting, $ starts a variable (root, access_log), and control
# characters (a newline) have no place in a path nginx is given.
NGINX_PATH_BAD = re.compile(r'["\\$\x00-\x1f\x7f]')


def find_nginx() -> str | None:
    """$LAB_NGINX if set, else nginx on PATH, else where Debian puts it (/usr/sbin is not on a user's PATH)."""
    if os.environ.get("LAB_NGINX"):
        return os.environ["LAB_NGINX"] if os.access(os.environ["LAB_NGINX"], os.X_OK) else None
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None)


def streamlit_static_dir() -> Path:
    from streamlit import file_util

    return Path(file_util.get_static_dir())



# --- Static files -----------------------------------------------------------------------------


def _gzip_file(path: Path) -> None:
    data = path.read_bytes()
    path.with_name(path.name + ".gz").write_bytes(gzip.compress(data, 9, mtime=0))


def prepare_static(target: Path) -> tuple[int, int]:
    """Copy Streamlit's static/ to ``target``, with a .gz next to every text file. Returns (files, .gz files)."""
    shutil.copytree(streamlit_static_dir(), target)
    texts = [p for p in target.rglob("*") if p.is_file() and p.suffix in COMPRESS]
    with ThreadPoolExecutor(max(2, os.cpu_count() or 2)) as pool:  # zlib releases the GIL
        list(pool.map(_gzip_file, texts))
    for path in [target, *target.rglob("*")]:  # readable by nginx's workers (www-data when started as root)
        path.chmod(0o755 if path.is_dir() else 0o644)
    return sum(1 for p in target.rglob("*") if p.is_file()), len(texts)


# --- nginx config -----------------------------------------------------------------------------


def upstream_blocks(upstreams: list[str]) -> dict[str, str]:
    """The generated parts of the nginx config: one upstream per replica (r1, r2, ...; the others as backups),
    lab_pick and lab_any (round robin over all), and the maps between cookie, upstream and address."""
    names = [f"r{i}" for i in range(1, len(upstreams) + 1)]
    server = "        server {} max_fails=1 fail_timeout=3s;"
    blocks = []
    for block in ("lab_pick", "lab_any"):
        blocks.append(f"    upstream {block} {{\n        zone {block} 64k;\n"
                      + "\n".join(server.format(u) for u in upstreams) + "\n        keepalive 16;\n    }")
    for name, address in zip(names, upstreams):
        lines = [server.format(address)] + [f"        server {u} backup;" for u in upstreams if u != address]
        blocks.append(f"    upstream lab_{name} {{\n        zone lab_{name} 64k;\n" + "\n".join(lines)
                      + "\n        keepalive 16;\n    }")
    last = [f'"~(^|[ ,]){re.escape(u)}$"' for u in upstreams]  # the address that answered: the last one tried
    return {
        "UPSTREAMS": "\n".join(blocks),
        "COOKIE_TO_UPSTREAM": "\n".join(f"        {n} lab_{n};" for n in names),
        "ADDRESS_TO_NAME": "\n".join(f"        {pattern} {n};" for n, pattern in zip(names, last)),
        "ADDRESS_TO_LABEL": "\n".join(f"        {pattern} replica-{i};" for i, pattern in enumerate(last, 1)),
    }


def real_ip_lines(trusted: list[str]) -> str:
    """nginx's realip settings for ``--trust-proxy``: from those addresses (a front in front of this machine), the
    client's address is the X-Lab-Client they set; from anyone else, the connection's own address."""
    if not trusted:
        return "        # (no --trust-proxy: the client's address is the connection's own)"
    lines = [f"        set_real_ip_from {address};" for address in trusted]
    return "\n".join([*lines, "        real_ip_header X-Lab-Client;", "        real_ip_recursive off;"])


def render_config(*, run_dir: Path, www_dir: Path, static_root: Path, listen: str, upstreams: list[str],
                  workers: str, user_line: str, access_log: str, max_body: str, cookie: str, proxy_token: str,
                  trusted: list[str] | None = None) -> str:
    """The nginx config. Paths go in double quotes (the template quotes them); one that a quoted nginx string cannot
    hold as it is (a quote, backslash, $, control character) is refused here, as --run-dir is before we start."""
    for path in (run_dir, www_dir, static_root):
        if NGINX_PATH_BAD.search(str(path)):
            raise ValueError(f"{path!r}: a quote, backslash, $ or control character cannot go in nginx's config")
    if not re.fullmatch(r"[0-9a-f]{32,128}", proxy_token):
        raise ValueError("the proxy token is hex digits, made by scripts/serve")
    text = TEMPLATE.read_text(encoding="utf-8")
    for name, value in {
        "USER_LINE": user_line,
        "WORKERS": workers,
        "RUN_DIR": str(run_dir),
        "WWW_DIR": str(www_dir),
        "STATIC_ROOT": str(static_root),
        "LISTEN": listen,
        "ACCESS_LOG": access_log,
        "MAX_BODY": max_body,
        "COOKIE": cookie,
        "PROXY_TOKEN": proxy_token,
        "REAL_IP": real_ip_lines([str(network(a)) for a in trusted or []]),
        **upstream_blocks(upstreams),
    }.items():
        text = text.replace(f"@@{name}@@", value)
    leftover = [part.split("@@")[0] for part in text.split("@@")[1::2]]
    if leftover:
        raise ValueError(f"{TEMPLATE}: placeholders not filled: {leftover}")
    return text


def nginx_user_line() -> str:
    """As root, nginx's workers drop to www-data (Debian's nginx user), else nobody; otherwise they stay us."""
    if os.geteuid() != 0:
        return "# not root: the workers run as the user who started scripts/serve"
    for user in ("www-data", "nobody"):
        try:
            pwd.getpwnam(user)
            return f"user {user};"
        except KeyError:
            continue
    return "user root;"


def listen_address(address: str, port: int) -> str:
    """address:port as nginx's listen takes it (an IPv6 address in brackets)."""
    if ":" in address and not address.startswith("["):
        address = f"[{address}]"
    return f"{address}:{port}"


def network(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    """An address or network as nginx's set_real_ip_from takes it, or None."""
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        return None
