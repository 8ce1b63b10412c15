"""A Streamlit client that speaks the browser's protocol, without a browser.

Used by ``bench/bench_load.py`` (many learners at once), ``deploy/serve.py``
(warming each replica up before the class arrives) and ``tests/test_serve.py``.

What a browser (Chromium, Streamlit 1.67's frontend) does, and this client too:

1. ``GET /<page>?<query>``: the page's HTML. Behind ``scripts/serve`` this
   response sets the replica-affinity cookie ``lab_affinity``.
2. ``GET /_stcore/health`` (sets the ``_streamlit_xsrf`` cookie) and
   ``GET /_stcore/host-config``.
3. A websocket to ``/_stcore/stream`` with the cookies, ``Origin`` = the
   page's origin, and ``Sec-WebSocket-Protocol: streamlit, <xsrf token>``
   (a reconnect adds the old session id as a third entry).
4. Every interaction is one binary ``BackMsg`` with ``rerun_script`` (a
   ``ClientState``): the page's query string, the page (``page_name`` =
   the URL path on a deep link, else ``page_script_hash``), ``context_info``
   (time zone, locale, URL, colour scheme) and ``widget_states``: the current
   value of every widget on the page, plus ``trigger_value`` for a clicked
   button. A click on a widget inside ``st.fragment`` also carries the
   fragment's id (the ``fragment_id`` of the button's delta), and Streamlit
   reruns only the fragment.
   A file dropped on an uploader: a ``file_urls_request`` BackMsg, the
   ``file_urls_response`` ForwardMsg naming its upload URL, a multipart ``PUT``
   there (with the ``X-Xsrftoken`` header), then a rerun whose widget state
   names the file (``Session.upload``).
   A fragment with ``run_every`` (the class bar) reruns on the browser's timer: the server's ``auto_rerun``
   ForwardMsg names the fragment and its interval, and every interval the frontend sends a ``rerun_script``
   with every widget's state, that ``fragment_id`` and ``is_auto_rerun`` set (``Session.tick``) until a
   ``stop_auto_rerun`` (or a new page) ends it. After a lost connection the frontend connects again (the old
   session id as the protocol's third entry) and, since it had a timer running, asks for a whole run with
   every widget's state (``Session.reconnect``): a replica started afresh makes a new session then.
5. The server answers with ``ForwardMsg`` frames: ``new_session``, deltas
   (elements, with widget ids ``$$ID-<hash>-<key>`` and the values the server
   set), ``page_info_changed`` (the new query string) and ``script_finished``.
   It may also begin a run on its own, between two of the client's: the class bar of a screen whose class just
   changed (``ui.push``). Every frame is read as it arrives (a reader task), as the browser reads it; a run the
   client did not ask for is applied the same way and handed to ``Session.on_push``; ``Session.idle`` waits as
   an idle tab does, reading them.

Widget values are tracked from the deltas the way the frontend tracks them
(the value the server set, else the one already held, else the default), so
each rerun carries the same ``widget_states`` a browser would send. The client
was checked against Chromium: ``bench/bench_load.py --check-browser`` records
the frames Chromium sends for the same steps (Playwright's websocket events)
and compares them with this client's, field by field.
"""

from __future__ import annotations

import asyncio
import re
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import overload

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import ClientConnection
from websockets.typing import Origin, Subprotocol

# What Chromium 156 sends (captured with Playwright); the server only reads cookies, Origin and the protocol.
USER_AGENT = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36"
)
BROWSER_HEADERS = {
    "User-Agent": USER_AGENT,
    "Accept-Language": "en-US,en;q=0.9",
    "Accept-Encoding": "gzip, deflate, br, zstd",
}
FINISHED = {
    ForwardMsg.FINISHED_SUCCESSFULLY: "ok",
    ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY: "fragment ok",
    ForwardMsg.FINISHED_WITH_COMPILE_ERROR: "compile error",
    ForwardMsg.FINISHED_EARLY_FOR_RERUN: "stopped for a rerun",
}
_WIDGET_ID = re.compile(r"^\$\$ID-[0-9a-f]+-(.+)$")


class ProtocolError(RuntimeError):
    """The server did not answer as a browser expects (closed, timed out, or refused)."""


# --- A small HTTP/1.1 client: keep-alive connections, as a browser holds (six per host) -------------


@dataclass
class HttpResponse:
    status: int
    headers: list[tuple[str, str]]
    body: bytes  # as sent (still compressed, if the server compressed it)
    wire_bytes: int = 0

    @overload
    def header(self, name: str) -> str | None: ...
    @overload
    def header(self, name: str, default: str) -> str: ...

    def header(self, name: str, default: str | None = None) -> str | None:
        name = name.lower()
        return next((v for k, v in self.headers if k == name), default)

    def header_list(self, name: str) -> list[str]:
        name = name.lower()
        return [v for k, v in self.headers if k == name]


class HttpConnection:
    """One keep-alive HTTP/1.1 connection to ``host:port`` (reopened when the server closes it)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def get(self, target: str, headers: dict[str, str] | None = None, timeout: float = 60) -> HttpResponse:
        return await asyncio.wait_for(self._request("GET", target, headers or {}, None), timeout)

    async def put(self, target: str, body: bytes, headers: dict[str, str] | None = None,
                  timeout: float = 60) -> HttpResponse:
        return await asyncio.wait_for(self._request("PUT", target, headers or {}, body), timeout)

    async def _request(self, method: str, target: str, headers: dict[str, str], body: bytes | None) -> HttpResponse:
        for attempt in (1, 2):  # a kept-alive connection the server closed meanwhile: reopen once
            if self._writer is None:
                self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
            try:
                lines = [f"{method} {target} HTTP/1.1", f"Host: {self.host}:{self.port}", "Connection: keep-alive"]
                lines += [f"{k}: {v}" for k, v in headers.items()]
                if body is not None:
                    lines.append(f"Content-Length: {len(body)}")
                self._writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b""))
                await self._writer.drain()
                return await self._read_response()
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _read_response(self) -> HttpResponse:
        assert self._reader is not None
        head = await self._reader.readuntil(b"\r\n\r\n")
        wire = len(head)
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        headers = []
        for line in header_lines:
            if ":" in line:
                k, v = line.split(":", 1)
                headers.append((k.strip().lower(), v.strip()))
        resp = HttpResponse(status, headers, b"")
        length = resp.header("content-length")
        if resp.header("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size_line = await self._reader.readuntil(b"\r\n")
                size = int(size_line.split(b";")[0], 16)
                chunk = await self._reader.readexactly(size + 2)
                wire += len(size_line) + len(chunk)
                if size == 0:
                    break
                chunks.append(chunk[:-2])
            resp.body = b"".join(chunks)
        elif length is not None:
            resp.body = await self._reader.readexactly(int(length))
            wire += len(resp.body)
        elif status not in (204, 304):
            resp.body = await self._reader.read()
            wire += len(resp.body)
        resp.wire_bytes = wire
        if resp.header("connection", "").lower() == "close":
            await self.close()
        return resp

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            try:
                await self._writer.wait_closed()
            except (ConnectionError, OSError):
                pass
        self._reader = self._writer = None


class CookieJar:
    """Name -> value for one origin (enough for Streamlit's and nginx's cookies)."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}

    def update(self, resp: HttpResponse) -> None:
        for raw in resp.header_list("set-cookie"):
            name, _, rest = raw.partition("=")
            self.values[name.strip()] = rest.split(";", 1)[0].strip()

    def header(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.values.items())} if self.values else {}


# --- The websocket session ----------------------------------------------------------------------


@dataclass
class Run:
    """One interaction: from sending the BackMsg to ``script_finished``."""

    sent: float
    finished: float | None = None
    marker_at: float | None = None  # the first delta holding ``marker``: the message that shows the new state
    status: str | None = None
    query_string: str | None = None  # the URL the server set for this session (page_info_changed)
    exceptions: list[str] = field(default_factory=list)
    frames: list[bytes] = field(default_factory=list)

    @property
    def latency(self) -> float | None:
        """Seconds from the click to the message that shows the new state (else to the end of the run)."""
        end = self.marker_at if self.marker_at is not None else self.finished
        return None if end is None else end - self.sent

    @property
    def duration(self) -> float | None:
        return None if self.finished is None else self.finished - self.sent


def _widget_value(kind: str, el, held: WidgetState | None) -> WidgetState | None:
    """The value the frontend would send for this widget element: set by the server, else held, else default."""
    state = WidgetState(id=el.id)
    set_value = getattr(el, "set_value", False)
    if held is not None and not set_value:
        return held
    if kind == "checkbox":
        state.bool_value = el.value if set_value else el.default
    elif kind in ("text_input", "text_area"):
        if set_value and el.HasField("value"):
            state.string_value = el.value
        elif el.HasField("default") and el.default:
            state.string_value = el.default
        else:
            return None
    elif kind in ("selectbox", "radio"):
        if set_value and el.HasField("raw_value"):
            state.string_value = el.raw_value
        elif el.HasField("default") and 0 <= el.default < len(el.options):
            state.string_value = el.options[el.default]
        else:
            return None
    elif kind == "multiselect":
        values = list(el.raw_values) if set_value else [el.options[i] for i in el.default if i < len(el.options)]
        state.string_array_value.data.extend(values)
    elif kind == "button_group":
        values = list(el.raw_values) if set_value else [el.options[i].content for i in el.default]
        state.string_array_value.data.extend(values)
    elif kind == "number_input":
        number = el.value if set_value and el.HasField("value") else el.default
        if el.data_type == el.INT:
            state.int_value = int(number)
        else:
            state.double_value = number
    elif kind == "file_uploader":  # nothing uploaded: an empty state, as the frontend sends
        state.file_uploader_state_value.SetInParent()
    elif kind == "slider":
        state.double_array_value.data.extend(list(el.value) if set_value else list(el.default))
    else:  # buttons (triggers) and widgets this lab does not use
        return None
    return state


class Session:
    """One browser tab: HTTP for the page, then the websocket, then reruns.

    ``base_url`` is e.g. ``http://127.0.0.1:8080``. Cookies (affinity, XSRF) are
    kept per session, like one browser profile per learner.
    """

    def __init__(self, base_url: str, *, keep_frames: bool = True) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        self.base_url = base_url.rstrip("/")
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 80
        self.jar = CookieJar()
        self.http = HttpConnection(self.host, self.port)
        self.ws: ClientConnection | None = None
        self.keep_frames = keep_frames
        self.session_id = ""
        self.page_hash = ""  # the page this tab shows (page_script_hash)
        self.url_path = ""
        self.query_string = ""
        self.pages: dict[str, str] = {}  # url_pathname -> page_script_hash
        self.widgets: dict[str, WidgetState] = {}
        self.widget_kind: dict[str, str] = {}
        self.widget_fragment: dict[str, str] = {}
        self.widget_disabled: dict[str, bool] = {}
        self.ids_by_key: dict[str, str] = {}
        self.first_drawn: dict[str, float] = {}  # widget key -> when a frame first drew it (arrival time)
        self.replica: str | None = None  # X-Lab-Replica, when served through scripts/serve
        self.auto_reruns: dict[str, float] = {}  # fragment id -> seconds: the timers the frontend runs
        self._seen: set[str] = set()
        self._uploads = 0
        self._frames: asyncio.Queue | None = None  # (arrival time, frame or the error that ended the socket)
        self._reader: asyncio.Task | None = None
        self._pushed: Run | None = None  # a run the server began on its own, being read
        self.on_push = None  # called with each run the server began on its own (ui.push), once it finished
        self.pushes = 0

    # -- HTTP -----------------------------------------------------------------------------
    async def fetch(self, target: str) -> HttpResponse:
        resp = await self.http.get(target, {**BROWSER_HEADERS, **self.jar.header()})
        self.jar.update(resp)
        self.replica = resp.header("x-lab-replica") or self.replica
        return resp

    async def open(self, url_path: str, query: str = "", *, timeout: float = 60) -> HttpResponse:
        """Load the page (HTML, health, host-config) and connect the websocket. Returns the HTML response."""
        self.url_path, self.query_string = url_path.strip("/"), query
        page = await self.fetch(f"/{self.url_path}" + (f"?{query}" if query else ""))
        if page.status != 200:
            raise ProtocolError(f"GET /{self.url_path}: HTTP {page.status}")
        for target in ("/_stcore/health", "/_stcore/host-config"):
            resp = await self.fetch(target)
            if resp.status != 200:
                raise ProtocolError(f"GET {target}: HTTP {resp.status}")
        await self.connect(timeout=timeout)
        return page

    async def connect(self, *, timeout: float = 60) -> None:
        xsrf = self.jar.values.get("_streamlit_xsrf", "")
        ws_url = f"ws://{self.host}:{self.port}/_stcore/stream"
        protocols = ["streamlit", xsrf] + ([self.session_id] if self.session_id else [])

        async def opened() -> ClientConnection:  # websockets' connect is awaitable, typed as no coroutine asyncio takes
            return await websockets.connect(
                ws_url,
                subprotocols=[Subprotocol(p) for p in protocols if p],
                origin=Origin(f"http://{self.host}:{self.port}"),
                additional_headers={**BROWSER_HEADERS, **self.jar.header(),
                                    "Cache-Control": "no-cache", "Pragma": "no-cache"},
                user_agent_header=None,
                max_size=None,
                ping_interval=None,
                proxy=None,
                open_timeout=timeout,
            )

        self.ws = ws = await asyncio.wait_for(opened(), timeout)
        replicas = ws.response.headers.get_all("X-Lab-Replica") if ws.response is not None else []  # behind two nginx: the inner one's first
        self.replica = replicas[0] if replicas else self.replica
        # Every frame is read as it arrives, as the browser does: a run this client asked for, and a run the server
        # began on its own (a fragment it reran because its class changed, ui.push) between two of ours.
        self._frames = asyncio.Queue()
        self._pushed = None
        self._reader = asyncio.create_task(self._read_socket(self.ws, self._frames))

    @staticmethod
    async def _read_socket(ws, frames: asyncio.Queue) -> None:
        try:
            while True:
                data = await ws.recv()
                frames.put_nowait((time.perf_counter(), data))
        except Exception as exc:  # noqa: BLE001 - closed, reset: whoever reads next learns it
            frames.put_nowait((time.perf_counter(), exc))

    @overload
    async def _next_frame(self, timeout: None = None) -> tuple[float, bytes]: ...
    @overload
    async def _next_frame(self, timeout: float) -> tuple[float, bytes] | None: ...

    async def _next_frame(self, timeout: float | None = None) -> tuple[float, bytes] | None:
        """The next frame (None after ``timeout`` seconds without one); ProtocolError when the socket ended."""
        if self._frames is None:
            raise ProtocolError("not connected")
        try:
            now, data = await asyncio.wait_for(self._frames.get(), timeout) if timeout is not None else \
                await self._frames.get()
        except TimeoutError:
            return None
        if isinstance(data, BaseException):
            self._frames.put_nowait((now, data))  # it stays ended for the next reader too
            raise ProtocolError(f"websocket closed: {data}")
        if isinstance(data, str):
            raise ProtocolError("text frame from the server")
        return now, data

    async def idle(self, seconds: float) -> None:
        """Wait ``seconds`` as an idle browser tab does: whatever the server sends meanwhile (a run it began on
        its own) is read and shown (:attr:`on_push`)."""
        deadline = time.perf_counter() + max(0.0, seconds)
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                return
            got = await self._next_frame(left)
            if got is not None:
                self._unsolicited(*got)

    def _unsolicited(self, now: float, data: bytes) -> None:
        """A frame of a run this client did not ask for: read as the browser reads it; a finished run goes to
        :attr:`on_push`."""
        fm = ForwardMsg()
        fm.ParseFromString(data)
        kind = fm.WhichOneof("type")
        if kind == "new_session" or self._pushed is None:
            self._pushed = Run(sent=now)
        run = self._pushed
        if self.keep_frames:
            run.frames.append(data)
        self._apply(fm, kind, run, now, data, marker=None, fragment=True)
        if kind == "script_finished" and fm.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
            self._pushed = None
            self.pushes += 1
            if self.on_push is not None:
                self.on_push(run)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            self._reader = None
        if self.ws is not None:
            await self.ws.close()
            self.ws = None
        await self.http.close()

    # -- reruns -------------------------------------------------------------------------------
    def _context(self) -> dict:
        return {"timezone": "UTC", "timezone_offset": 0, "locale": "en-US",
                "url": f"{self.base_url}/{self.url_path}", "is_embedded": False, "color_scheme": "light"}

    async def rerun(self, *, widgets: list[WidgetState] | None = None, page_name: str = "", fragment_id: str = "",
                    marker: bytes | None = None, timeout: float = 60, auto: bool = False) -> Run:
        """Send one rerun_script and read until script_finished (``auto``: a run_every fragment's timer)."""
        if self.ws is None:
            raise ProtocolError("not connected")
        state = ClientState(query_string=self.query_string, page_name=page_name, fragment_id=fragment_id,
                            page_script_hash="" if page_name else self.page_hash, is_auto_rerun=auto)
        state.widget_states.widgets.extend(widgets or [])
        for k, v in self._context().items():
            setattr(state.context_info, k, v)
        msg = BackMsg()
        msg.rerun_script.CopyFrom(state)
        if not fragment_id:
            self._seen = set()
        run = Run(sent=time.perf_counter())
        try:
            await self.ws.send(msg.SerializeToString())
            await asyncio.wait_for(self._read_run(run, marker, fragment=bool(fragment_id)), timeout)
        except TimeoutError as exc:
            raise ProtocolError(f"no script_finished within {timeout:.0f} s") from exc
        except websockets.ConnectionClosed as exc:
            raise ProtocolError(f"websocket closed: {exc}") from exc
        return run

    async def _read_run(self, run: Run, marker: bytes | None, fragment: bool) -> None:
        """Read the run this client asked for: frames of a run the server began on its own before it (a push,
        arriving before our run's ``new_session``) are read as such; a run finished without the ``marker`` asked
        for, when the server may have queued ours after a push, is taken for that push and reading goes on."""
        assert self.ws is not None
        started = False
        while True:
            now, data = await self._next_frame()
            fm = ForwardMsg()
            fm.ParseFromString(data)
            kind = fm.WhichOneof("type")
            if not started:
                if kind != "new_session":
                    self._unsolicited(now, data)
                    continue
                started, self._pushed = True, None
            if self.keep_frames:
                run.frames.append(data)
            if self._apply(fm, kind, run, now, data, marker=marker, fragment=fragment):
                # a fragment's run where we asked for the page's, or one without the marker ours must draw: a push
                # the server began just before ours (which it runs next)
                push_first = run.status == "fragment ok" and not run.exceptions and (
                    not fragment or (marker is not None and run.marker_at is None))
                if push_first:
                    pushed = Run(sent=run.sent, finished=run.finished, status=run.status, frames=run.frames)
                    self.pushes += 1
                    if self.on_push is not None:
                        self.on_push(pushed)
                    run.frames, run.finished, run.status, started = [], None, None, False
                    continue
                return

    def _apply(self, fm, kind: str | None, run: Run, now: float, data: bytes, *, marker: bytes | None,
               fragment: bool) -> bool:
        """One ForwardMsg, as the frontend applies it; True at the end of a run (not one stopped for a rerun)."""
        if marker is not None and run.marker_at is None and kind == "delta" and marker in data:
            run.marker_at = now  # a delta draws it (a URL that merely names it does not count)
        if kind == "new_session":
            ns = fm.new_session
            self.session_id = ns.initialize.session_id or self.session_id
            for page in ns.app_pages:
                self.pages[page.url_pathname] = page.page_script_hash
        elif kind == "navigation":
            self.page_hash = fm.navigation.page_script_hash or self.page_hash
            for page in fm.navigation.app_pages:
                if page.url_pathname:
                    self.pages[page.url_pathname] = page.page_script_hash
                if page.page_script_hash == fm.navigation.page_script_hash and page.url_pathname:
                    self.url_path = page.url_pathname
        elif kind == "delta":
            self._track(fm.delta, run)
        elif kind == "auto_rerun" and fm.auto_rerun.fragment_id:
            self.auto_reruns[fm.auto_rerun.fragment_id] = fm.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            for fid in fm.stop_auto_rerun.fragment_ids:
                self.auto_reruns.pop(fid, None)
        elif kind == "page_info_changed":
            self.query_string = run.query_string = fm.page_info_changed.query_string
        elif kind == "script_finished":
            run.finished = now
            run.status = FINISHED.get(fm.script_finished, str(fm.script_finished))
            if not fragment and fm.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                for wid in set(self.widget_kind) - self._seen:  # the frontend drops widgets a full run did not draw
                    self._forget(wid)
            if fm.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                return True
        return False

    def _track(self, delta, run: Run) -> None:
        if delta.WhichOneof("type") != "new_element":
            return
        el = delta.new_element
        kind = el.WhichOneof("type")
        if kind == "exception":
            run.exceptions.append(f"{el.exception.type}: {el.exception.message}")
            return
        sub = getattr(el, kind, None)
        wid = getattr(sub, "id", "")
        if not isinstance(wid, str) or not wid.startswith("$$ID-"):
            return
        self._seen.add(wid)
        match = _WIDGET_ID.match(wid)
        if match:
            self.ids_by_key[match.group(1)] = wid
            self.first_drawn.setdefault(match.group(1), time.perf_counter())
        self.widget_kind[wid] = kind
        self.widget_fragment[wid] = delta.fragment_id
        self.widget_disabled[wid] = bool(getattr(sub, "disabled", False))
        value = _widget_value(kind, sub, self.widgets.get(wid))
        if value is not None:
            self.widgets[wid] = value

    def _forget(self, wid: str) -> None:
        for table in (self.widgets, self.widget_kind, self.widget_fragment, self.widget_disabled):
            table.pop(wid, None)
        for key in [k for k, v in self.ids_by_key.items() if v == wid]:
            del self.ids_by_key[key]

    # -- what a learner does --------------------------------------------------------------------
    async def load(self, *, marker: bytes | None = None, timeout: float = 60) -> Run:
        """The first run after a deep link (the page named by its URL path)."""
        return await self.rerun(page_name=self.url_path, marker=marker, timeout=timeout)

    def widget_id(self, key: str) -> str:
        try:
            return self.ids_by_key[key]
        except KeyError:
            raise ProtocolError(f"no widget with key {key!r} on the page (have: {sorted(self.ids_by_key)})") from None

    def enabled(self, key: str) -> bool:
        return key in self.ids_by_key and not self.widget_disabled.get(self.ids_by_key[key], False)

    async def click(self, key: str, *, marker: bytes | None = None, timeout: float = 60) -> Run:
        """Click the button with this key (inside a fragment: a fragment rerun, as the browser does)."""
        wid = self.widget_id(key)
        states = [s for w, s in self.widgets.items() if w != wid] + [WidgetState(id=wid, trigger_value=True)]
        return await self.rerun(widgets=states, fragment_id=self.widget_fragment.get(wid, ""), marker=marker,
                                timeout=timeout)

    async def type_text(self, key: str, text: str, *, marker: bytes | None = None, timeout: float = 60) -> Run:
        """Type into a text input or text area and commit it (Ctrl+Enter or leaving the box)."""
        wid = self.widget_id(key)
        self.widgets[wid] = WidgetState(id=wid, string_value=text)
        return await self.rerun(widgets=list(self.widgets.values()), marker=marker, timeout=timeout)

    async def upload(self, key: str, name: str, data: bytes, *, marker: bytes | None = None,
                     timeout: float = 60) -> Run:
        """Drop a file on the file uploader with this key, as the frontend does: ask for its URLs over the
        websocket (``file_urls_request``), PUT the file there (multipart, with the XSRF token), then rerun with
        the uploader's state naming the file."""
        if self.ws is None:
            raise ProtocolError("not connected")
        wid = self.widget_id(key)
        self._uploads += 1
        request_id = f"upload-{self._uploads}"
        msg = BackMsg()
        msg.file_urls_request.request_id = request_id
        msg.file_urls_request.file_names.append(name)
        msg.file_urls_request.session_id = self.session_id
        await self.ws.send(msg.SerializeToString())

        async def urls():
            while True:
                now, data = await self._next_frame()
                fm = ForwardMsg()
                fm.ParseFromString(data)
                if fm.WhichOneof("type") == "file_urls_response" and fm.file_urls_response.response_id == request_id:
                    return fm.file_urls_response
                self._unsolicited(now, data)  # (a run the server began meanwhile)

        try:
            answer = await asyncio.wait_for(urls(), timeout)
        except TimeoutError as exc:
            raise ProtocolError(f"no file URLs within {timeout:.0f} s") from exc
        if answer.error_msg or not answer.file_urls:
            raise ProtocolError(f"file URLs refused: {answer.error_msg or 'none given'}")
        file_urls = answer.file_urls[0]
        boundary = f"----labupload{self._uploads}x{len(data)}"
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
                "Content-Type: application/octet-stream\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
        target = urllib.parse.urlsplit(file_urls.upload_url)
        path = (target.path or "/") + (f"?{target.query}" if target.query else "")
        resp = await self.http.put(path if path.startswith("/") else f"/{path}", body, {
            **BROWSER_HEADERS, **self.jar.header(), "Content-Type": f"multipart/form-data; boundary={boundary}",
            "X-Xsrftoken": self.jar.values.get("_streamlit_xsrf", "")}, timeout=timeout)
        if resp.status not in (200, 204):
            raise ProtocolError(f"PUT {path}: HTTP {resp.status}: {resp.body[:200]!r}")
        state = WidgetState(id=wid)
        info = state.file_uploader_state_value.uploaded_file_info.add()
        info.file_id, info.name, info.size = file_urls.file_id, name, len(data)
        info.file_urls.CopyFrom(file_urls)
        self.widgets[wid] = state
        return await self.rerun(widgets=list(self.widgets.values()), marker=marker, timeout=timeout)

    async def tick(self, fragment_id: str | None = None, *, marker: bytes | None = None, timeout: float = 60) -> Run:
        """What the frontend's timer for a ``run_every`` fragment sends: every widget's state, the fragment's id,
        ``is_auto_rerun`` (``fragment_id``: the only timer running, when None)."""
        if fragment_id is None:
            if len(self.auto_reruns) != 1:
                raise ProtocolError(f"{len(self.auto_reruns)} fragment timers run on this page, not one")
            fragment_id = next(iter(self.auto_reruns))
        return await self.rerun(widgets=list(self.widgets.values()), fragment_id=fragment_id, marker=marker,
                                timeout=timeout, auto=True)

    async def reconnect(self, *, marker: bytes | None = None, timeout: float = 60) -> Run:
        """After the websocket was lost (a replica restarted): connect again, offering the old session id, and run
        the page with every widget's state, as the frontend does when it had a fragment timer running."""
        if self.ws is not None:
            try:
                await self.ws.close()
            except Exception:  # noqa: BLE001 - it is gone already
                pass
            self.ws = None
        self.auto_reruns.clear()
        if self._reader is not None:
            self._reader.cancel()
            self._reader = None
        await self.connect(timeout=timeout)
        return await self.rerun(widgets=list(self.widgets.values()), marker=marker, timeout=timeout)

    async def switch_page(self, url_pathname: str, *, marker: bytes | None = None, timeout: float = 60) -> Run:
        """Follow a sidebar link (st.page_link) to another page: no query string, no widget states."""
        if url_pathname not in self.pages:
            raise ProtocolError(f"no page {url_pathname!r} (have: {sorted(self.pages)})")
        self.page_hash, self.query_string = self.pages[url_pathname], ""
        for wid in list(self.widget_kind):
            self._forget(wid)
        run = await self.rerun(marker=marker, timeout=timeout)  # context_info still names the page it left
        self.url_path = url_pathname
        return run


def query(**params: str) -> str:
    return urllib.parse.urlencode(params)
