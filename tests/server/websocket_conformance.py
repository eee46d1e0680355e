#!/usr/bin/python3
"""What a WebSocket client sees on the wire from campfire-server, held to RFC 6455 (and RFC 7692
for permessage-deflate), over raw TCP sockets and nothing else.

The suite starts its own server (a free port of 127.0.0.1, a temporary data directory) and runs
one connection per case:

- handshake: the accept key, a version or key missing or wrong, a non-GET request, HTTP/1.0,
  no Host, a plain GET of /ws, header tokens in other spellings, and a permessage-deflate offer;
- framing: 7-bit, 16-bit and 64-bit payload lengths, an empty message, control frames between
  the fragments of a message, an unasked pong, and every kind of frame the RFC forbids;
- closing: the closing handshake with and without a reason, every close code class, a close
  frame too short or with a reason that is not UTF-8, and frames sent after a close;
- UTF-8 split across fragments, a bad sequence in a later fragment, a message ending mid-character.

After every protocol error the client must get a close frame with the status code and then the
end of the TCP stream; the codes are printed in a table at the end. hostile_test.cpp covers the
rest (1-byte continuation frames, oversized and binary messages, invalid UTF-8 in one frame,
timeouts, slow readers).

Exits 0 only when every case passed. A case on KNOWN_DIFFERENCES is expected to fail: its
failure is printed as a known difference, and a pass fails the suite until the case is taken off
the list.
"""
import argparse
import base64
import hashlib
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib

# --- permessage-deflate (RFC 7692): every expectation about it is here ------------------------
#
# The offer a client makes (a browser's), and what the server's 101 answer must say about it,
# as {extension: {parameter: value or None}} (RFC 7692 7.1). Campfire asks every client to
# start each message it compresses afresh (client_no_context_takeover: one decompressor per
# server thread serves every connection), and keeps its own window from message to message,
# which is where the gain on small, alike frames is. The cases for compressed messages are
# under "deflate" below; the RSV1 cases under "framing", whose handshakes make no offer, stay
# errors.
DEFLATE_OFFER = "permessage-deflate; client_max_window_bits"
DEFLATE_ANSWER = {"permessage-deflate": {"client_no_context_takeover": None}}

# --- Where the server under test departs from RFC 6455 ---------------------------------------
#
# Each entry names a case that is expected to fail, and why. The suite prints them; a case on
# this list that passes fails the suite until it is taken off. Campfire's server has none.
KNOWN_DIFFERENCES = {}

TIMEOUT = 5.0
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
CONTROL = (OP_CLOSE, OP_PING, OP_PONG)


class Failed(Exception):
    pass


def expect(ok, what):
    if not ok:
        raise Failed(what)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def accept_key(key):
    return base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()


def new_key():
    return base64.b64encode(os.urandom(16)).decode()


# --- The wire ---------------------------------------------------------------------------------

class Frame:
    def __init__(self, fin, rsv, opcode, payload):
        self.fin, self.rsv, self.opcode, self.payload = fin, rsv, opcode, payload

    def __repr__(self):
        return f"Frame(fin={self.fin}, rsv={self.rsv}, op={self.opcode}, {self.payload[:60]!r})"


class Ended(Exception):
    """The server ended the TCP stream (an orderly end, or a reset)."""


class Wire:
    """One TCP connection to the server, spoken to byte by byte."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        # After a permessage-deflate answer: the window bits the server may use, and the
        # decompressor of its messages (one for the whole connection unless the server starts
        # every message afresh).
        self.inflate_bits = None
        self.inflate_fresh = False
        self.inflater = None
        self.compressed_messages = 0

    def close(self):
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def send(self, data):
        self.sock.sendall(data)

    def fill(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0:
            raise Failed("no answer within %.0f s" % TIMEOUT)
        self.sock.settimeout(left)
        try:
            chunk = self.sock.recv(65536)
        except socket.timeout:
            raise Failed("no answer within %.0f s" % TIMEOUT)
        except ConnectionResetError:
            raise Ended("reset")
        if not chunk:
            raise Ended("end of stream")
        self.buf += chunk

    def take(self, n, deadline):
        while len(self.buf) < n:
            self.fill(deadline)
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    # HTTP

    def request(self, lines):
        """Sends an HTTP request given as header lines; returns (status, headers, body)."""
        self.send(("\r\n".join(lines) + "\r\n\r\n").encode())
        deadline = time.monotonic() + TIMEOUT
        while b"\r\n\r\n" not in self.buf:
            self.fill(deadline)
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        status_line, *fields = head.decode("latin-1").split("\r\n")
        parts = status_line.split(" ", 2)
        expect(len(parts) >= 2 and parts[0].startswith("HTTP/1."), f"not HTTP: {status_line!r}")
        headers = {}
        for field in fields:
            name, _, value = field.partition(":")
            # Repeated fields join with commas (RFC 9110 5.3).
            key = name.strip().lower()
            headers[key] = (headers[key] + ", " if key in headers else "") + value.strip()
        status = int(parts[1])
        body = b""
        if status != 101 and "content-length" in headers:
            body = self.take(int(headers["content-length"]), deadline)
        return status, headers, body

    def upgrade(self, extra=(), drop=(), method="GET", version="HTTP/1.1", key=None):
        """The opening handshake with standard headers, less those named in `drop` and with
        `extra` added or replacing; returns (status, headers, body, key)."""
        key = key or new_key()
        fields = {"Host": "127.0.0.1", "Upgrade": "websocket", "Connection": "Upgrade",
                  "Sec-WebSocket-Key": key, "Sec-WebSocket-Version": "13"}
        for name in drop:
            fields.pop(name)
        fields.update(dict(extra))
        lines = [f"{method} /ws {version}"] + [f"{k}: {v}" for k, v in fields.items()]
        return (*self.request(lines), key)

    def open(self):
        """A WebSocket opened with a correct handshake."""
        status, headers, _, key = self.upgrade()
        expect(status == 101, f"handshake answered {status}")
        expect(headers.get("sec-websocket-accept") == accept_key(key), "wrong accept key")
        return self

    # WebSocket

    def frame(self, opcode, payload=b"", fin=True, rsv=0, masked=True, length=None):
        """Sends one frame. `length` forces the length encoding: 7, 16 or 64 bits."""
        if isinstance(payload, str):
            payload = payload.encode()
        n = len(payload)
        length = length or (7 if n < 126 else 16 if n < 65536 else 64)
        first = (0x80 if fin else 0) | (rsv << 4) | opcode
        mask_bit = 0x80 if masked else 0
        if length == 7:
            head = struct.pack("!BB", first, mask_bit | n)
        elif length == 16:
            head = struct.pack("!BBH", first, mask_bit | 126, n)
        else:
            head = struct.pack("!BBQ", first, mask_bit | 127, n)
        if masked:
            key = os.urandom(4)
            # Masking (RFC 6455 5.3): byte i is XORed with key[i % 4].
            whole = int.from_bytes(key * (n // 4 + 1), "big") >> (8 * (4 - n % 4))
            body = (int.from_bytes(payload, "big") ^ whole).to_bytes(n, "big") if n else b""
            head += key
        else:
            body = payload
        self.send(head + body)

    def text(self, payload, **kw):
        self.frame(OP_TEXT, payload, **kw)

    def close_frame(self, code=None, reason=b""):
        payload = b"" if code is None else struct.pack("!H", code) + reason
        self.frame(OP_CLOSE, payload)

    def read_frame(self, deadline=None):
        deadline = deadline or time.monotonic() + TIMEOUT
        b0, b1 = self.take(2, deadline)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack("!H", self.take(2, deadline))[0]
        elif n == 127:
            n = struct.unpack("!Q", self.take(8, deadline))[0]
        # RFC 6455 5.1: a server must not mask; 5.2: RSV bits stay 0 without an extension, and
        # no reserved opcodes; 5.5: control frames are whole and carry at most 125 bytes.
        expect(not b1 & 0x80, "the server masked a frame")
        frame = Frame(bool(b0 & 0x80), (b0 >> 4) & 7, b0 & 0x0F, self.take(n, deadline))
        # RFC 7692 6: with permessage-deflate agreed, RSV1 marks the first frame of a compressed
        # message, and only a data message's first frame.
        allowed = 4 if self.inflate_bits and frame.opcode in (OP_TEXT, OP_BINARY) else 0
        expect(frame.rsv & ~allowed == 0, f"the server set RSV bits: {frame}")
        expect(frame.opcode in (OP_CONT, OP_TEXT, OP_BINARY) + CONTROL,
               f"the server used a reserved opcode: {frame}")
        expect(frame.opcode not in CONTROL or (frame.fin and n <= 125),
               f"the server sent a fragmented or long control frame: {frame}")
        return frame

    def read_message(self, deadline=None):
        """The next data message or control frame, as (opcode, payload); pings from the server
        are answered and skipped."""
        deadline = deadline or time.monotonic() + TIMEOUT
        opcode, parts = None, []
        while True:
            f = self.read_frame(deadline)
            if f.opcode == OP_PING:
                self.frame(OP_PONG, f.payload)
                continue
            if f.opcode in CONTROL:
                expect(opcode is None or f.fin, "a fragmented control frame from the server")
                return f.opcode, f.payload
            if opcode is None:
                expect(f.opcode != OP_CONT, "the server sent a continuation with no message")
                opcode, compressed = f.opcode, bool(f.rsv & 4)
            else:
                expect(f.opcode == OP_CONT, "the server interleaved two messages")
                expect(f.rsv == 0, f"RSV bits on a continuation: {f}")
            parts.append(f.payload)
            if f.fin:
                payload = b"".join(parts)
                if compressed:
                    payload = self.inflate(payload)
                return opcode, payload

    def inflate(self, payload):
        """A compressed message's text (RFC 7692 7.2.2: the sender left off the flush's last
        four bytes)."""
        if self.inflater is None or self.inflate_fresh:
            self.inflater = zlib.decompressobj(-self.inflate_bits)
        self.compressed_messages += 1
        try:
            return self.inflater.decompress(payload + b"\x00\x00\xff\xff")
        except zlib.error as e:
            raise Failed(f"a compressed message from the server does not inflate: {e}")

    def open_deflate(self, offer=DEFLATE_OFFER):
        """A WebSocket opened with permessage-deflate offered; returns the parsed answer."""
        status, headers, _, key = self.upgrade(extra={"Sec-WebSocket-Extensions": offer})
        expect(status == 101, f"handshake answered {status}")
        expect(headers.get("sec-websocket-accept") == accept_key(key), "wrong accept key")
        answer = headers.get("sec-websocket-extensions")
        if answer is None:
            return None
        params = parse_extensions(answer).get("permessage-deflate")
        expect(params is not None, f"an extension nobody offered: {answer!r}")
        bits = params.get("server_max_window_bits")
        self.inflate_bits = int(bits) if bits else 15
        self.inflate_fresh = "server_no_context_takeover" in params
        return params

    def compressed_text(self, text, fragments=1, **kw):
        """Sends `text` compressed afresh (client_no_context_takeover), in `fragments` frames
        with RSV1 on the first only."""
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        data = c.compress(text.encode() if isinstance(text, str) else text)
        data += c.flush(zlib.Z_SYNC_FLUSH)
        expect(data.endswith(b"\x00\x00\xff\xff"), "zlib's sync flush tail")
        data = data[:-4]
        step = max(1, -(-len(data) // fragments))
        chunks = [data[i:i + step] for i in range(0, len(data), step)] or [b""]
        for i, chunk in enumerate(chunks):
            self.frame(OP_TEXT if i == 0 else OP_CONT, chunk, fin=i == len(chunks) - 1,
                       rsv=4 if i == 0 else 0, **kw)

    def read_json(self, deadline=None):
        opcode, payload = self.read_message(deadline)
        expect(opcode == OP_TEXT, f"expected a text message, got opcode {opcode}: {payload!r}")
        return json.loads(payload.decode("utf-8"))

    def ping_pong(self, id_=1):
        """The connection still works: a `ping` request gets its `pong`."""
        self.text(json.dumps({"type": "ping", "id": id_}, separators=(",", ":")))
        reply = self.read_json()
        expect(reply == {"type": "pong", "id": id_}, f"ping {id_} answered {reply}")

    def close_then_end(self):
        """Reads the server's close frame and then the end of the TCP stream; returns the close
        frame's (code or None, reason). Nothing may come between them (RFC 6455 5.5.1: no data
        after a close frame)."""
        deadline = time.monotonic() + TIMEOUT
        try:
            opcode, payload = self.read_message(deadline)
        except Ended as e:
            raise Failed(f"the TCP stream ended ({e}) without a close frame")
        expect(opcode == OP_CLOSE, f"expected a close frame, got opcode {opcode}: {payload!r}")
        code, reason = parse_close(payload)
        try:
            extra = self.read_frame(deadline)
        except Ended:
            return code, reason
        except Failed as e:
            raise Failed(f"after the close frame: {e}, not the end of the TCP stream")
        raise Failed(f"a frame after the close frame: {extra}")


def parse_close(payload):
    """A close frame's (code, reason) as the server sent it, held to RFC 6455 5.5.1 (the
    callers check the code, after recording it)."""
    if not payload:
        return None, ""
    expect(len(payload) >= 2, f"the server's close payload has 1 byte: {payload!r}")
    code = struct.unpack("!H", payload[:2])[0]
    try:
        reason = payload[2:].decode("utf-8")
    except UnicodeDecodeError:
        raise Failed(f"the server's close reason is not UTF-8: {payload[2:]!r}")
    return code, reason


def valid_on_wire(code):
    """RFC 6455 7.4: the codes an endpoint may put in a close frame. 1000-2999 hold the codes
    the RFC defines (1004 reserved; 1005, 1006 and 1015 never sent) and codes for later
    extensions, which nobody here has agreed to; 3000-4999 are for libraries and applications;
    below 1000 and above 4999 nothing is defined."""
    return code in (1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011) or 3000 <= code <= 4999


# --- The server --------------------------------------------------------------------------------

class Server:
    def __init__(self, binary, workdir):
        self.port = free_port()
        self.log = open(os.path.join(workdir, "server.log"), "w")
        data = os.path.join(workdir, "data")
        os.makedirs(data)
        # Short timeouts, so that nothing a case leaves behind lingers; the idle timeout is well
        # above a case's length, so the server never pings in the middle of one. The message
        # limit leaves room for the 64-bit length case (RFC 6455 5.2: only lengths of 65536 and
        # up may use it).
        self.proc = subprocess.Popen(
            [binary, "--bind", "127.0.0.1", "--port", str(self.port), "--data-dir", data,
             "--handshake-timeout", "3", "--idle-timeout", "30",
             "--max-frame-bytes", str(128 * 1024), "--log-level", "warn"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise Failed(f"campfire-server exited with {self.proc.returncode}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise Failed("campfire-server did not answer within 20 s")

    def wire(self):
        return Wire(self.port)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


# --- Cases ---------------------------------------------------------------------------------------

CASES = []
# (case, what was sent, what the server answered): printed as a table at the end.
CLOSES = []


def case(name):
    def register(fn):
        CASES.append((name, fn))
        return fn
    return register


def record(name, sent, code):
    CLOSES.append((name, sent, "none" if code is None else str(code)))


def expect_failure(w, name, sent, codes=(1002,)):
    """The server fails the connection (RFC 6455 7.1.7): a close frame with one of `codes`, then
    the end of the stream. The RFC lets a server fail without a close frame; Campfire always
    sends one, so that the client learns why."""
    code, _ = w.close_then_end()
    record(name, sent, code)
    expect(code in codes, f"closed with {code}, expected {' or '.join(map(str, codes))}")


def not_a_websocket(w, status, headers):
    """A refused handshake: no 101, no accept key, and the connection speaks no WebSocket after
    it (a text frame sent now gets no pong)."""
    expect(status != 101 and 400 <= status < 500, f"answered {status}, expected a 4xx refusal")
    expect("sec-websocket-accept" not in headers, "a refusal carried Sec-WebSocket-Accept")
    # The server may end the connection or keep it for more HTTP; either way no pong comes.
    try:
        w.text(json.dumps({"type": "ping", "id": 1}))
        deadline = time.monotonic() + 1
        while True:
            w.fill(deadline)
    except (Failed, Ended, BrokenPipeError, ConnectionResetError):
        pass
    expect(b"pong" not in w.buf, "a WebSocket answered after a refused handshake")


# Handshake (RFC 6455 4.2)

@case("handshake: correct request gets 101 with the accept key")
def _(srv):
    with srv.wire() as w:
        status, headers, _, key = w.upgrade()
        expect(status == 101, f"answered {status}")
        expect("websocket" in headers.get("upgrade", "").lower(), "no Upgrade: websocket")
        expect("upgrade" in [t.strip().lower() for t in headers.get("connection", "").split(",")],
               "no Connection: Upgrade")
        expect(headers.get("sec-websocket-accept") == accept_key(key),
               f"accept key {headers.get('sec-websocket-accept')!r}, expected {accept_key(key)!r}")
        # Nothing was offered, so nothing may be chosen (RFC 6455 4.1, 4.2.2).
        expect("sec-websocket-extensions" not in headers, "an extension nobody offered")
        expect("sec-websocket-protocol" not in headers, "a subprotocol nobody offered")
        w.ping_pong()


@case("handshake: the key from RFC 6455 1.3 gets its accept value")
def _(srv):
    with srv.wire() as w:
        status, headers, _, _ = w.upgrade(key="dGhlIHNhbXBsZSBub25jZQ==")
        expect(status == 101, f"answered {status}")
        expect(headers.get("sec-websocket-accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
               f"accept key {headers.get('sec-websocket-accept')!r}")


@case("handshake: header tokens in other spellings are accepted")
def _(srv):
    # Connection is a token list and Upgrade's token is case-insensitive (RFC 6455 4.2.1);
    # browsers send "keep-alive, Upgrade".
    with srv.wire() as w:
        status, _, _, _ = w.upgrade(extra={"Connection": "keep-alive, Upgrade",
                                           "Upgrade": "WebSocket"})
        expect(status == 101, f"answered {status}")
        w.ping_pong()


@case("handshake: permessage-deflate offer")
def _(srv):
    with srv.wire() as w:
        status, headers, _, _ = w.upgrade(extra={"Sec-WebSocket-Extensions": DEFLATE_OFFER})
        expect(status == 101, f"answered {status}")
        answer = headers.get("sec-websocket-extensions")
        if DEFLATE_ANSWER is None:
            expect(answer is None, f"extensions answered: {answer!r}, expected none")
        else:
            expect(answer is not None and parse_extensions(answer) == DEFLATE_ANSWER,
                   f"extensions answered: {answer!r}, expected {DEFLATE_ANSWER}")
        w.ping_pong()


def parse_extensions(value):
    """Sec-WebSocket-Extensions as {name: {param: value or None}} (RFC 6455 9.1)."""
    out = {}
    for ext in value.split(","):
        name, *params = [p.strip() for p in ext.split(";")]
        out[name] = {k.strip(): (v.strip().strip('"') if sep else None)
                     for k, sep, v in (p.partition("=") for p in params)}
    return out


def refused(name, **upgrade):
    @case("handshake: " + name)
    def _(srv):
        with srv.wire() as w:
            status, headers, _, _ = w.upgrade(**upgrade)
            not_a_websocket(w, status, headers)
            record("handshake: " + name, "HTTP", f"HTTP {status}")


refused("no Sec-WebSocket-Version is refused", drop=["Sec-WebSocket-Version"])
refused("no Sec-WebSocket-Key is refused", drop=["Sec-WebSocket-Key"])
# RFC 6455 4.2.1: the key is the base64 of 16 bytes; anything else is not a handshake.
refused("a Sec-WebSocket-Key of 8 bytes is refused", key=base64.b64encode(b"12345678").decode())
refused("a Sec-WebSocket-Key that is not base64 is refused", key="not base64 at all!!!!!!")
refused("POST with upgrade headers is refused", method="POST")
refused("HTTP/1.0 is refused", version="HTTP/1.0")
refused("no Host is refused", drop=["Host"])
refused("GET /ws without Upgrade is refused", drop=["Upgrade", "Connection"])


@case("handshake: a wrong Sec-WebSocket-Version gets 4xx naming version 13")
def _(srv):
    for version in ("8", "14", "banana"):
        with srv.wire() as w:
            status, headers, _, _ = w.upgrade(extra={"Sec-WebSocket-Version": version})
            # RFC 6455 4.2.2 item 4 and 4.4: an error (426 is the example) that names the
            # versions the server speaks.
            expect("13" in [v.strip() for v in headers.get("sec-websocket-version", "").split(",")],
                   f"version {version}: answer names versions "
                   f"{headers.get('sec-websocket-version')!r}")
            not_a_websocket(w, status, headers)
            record("handshake: Sec-WebSocket-Version " + version, "HTTP", f"HTTP {status}")


# Framing (RFC 6455 5)

def padded_ping(id_, size):
    """A `ping` request of exactly `size` bytes: JSON allows white space after the object."""
    text = json.dumps({"type": "ping", "id": id_}, separators=(",", ":"))
    return text + " " * (size - len(text))


@case("framing: 7-bit, 16-bit and 64-bit payload lengths")
def _(srv):
    with srv.wire().open() as w:
        # The boundaries of each encoding (RFC 6455 5.2): 125 and 126, 65535 and 65536.
        for id_, size in ((1, 22), (2, 125), (3, 126), (4, 1000), (5, 65535), (6, 65536),
                          (7, 100000)):
            w.text(padded_ping(id_, size))
            reply = w.read_json()
            expect(reply == {"type": "pong", "id": id_}, f"{size} bytes: {reply}")


@case("framing: a length in more bytes than needed is taken or fails the connection")
def _(srv):
    # RFC 6455 5.2 asks senders for the shortest length encoding but says nothing of a receiver
    # given a longer one: it may take the message or fail the connection (1002). Campfire's server
    # fails it.
    with srv.wire().open() as w:
        w.text('{"type":"ping","id":1}', length=16)
        opcode, payload = w.read_message()
        if opcode == OP_TEXT:
            expect(json.loads(payload) == {"type": "pong", "id": 1}, f"{payload!r}")
            record("framing: 16-bit length for 22 bytes", "22 bytes, 16-bit length", "taken")
            return
        expect(opcode == OP_CLOSE, f"opcode {opcode}: {payload!r}")
        code, _ = parse_close(payload)
        record("framing: 16-bit length for 22 bytes", "22 bytes, 16-bit length", code)
        expect(code == 1002, f"closed with {code}, expected 1002")
        try:
            extra = w.read_frame()
        except Ended:
            return
        raise Failed(f"a frame after the close frame: {extra}")


@case("framing: an empty text message gets bad_json and the connection stays")
def _(srv):
    with srv.wire().open() as w:
        w.text(b"")
        reply = w.read_json()
        expect(reply.get("type") == "error" and reply.get("code") == "bad_json", f"{reply}")
        w.ping_pong()


@case("framing: pings are answered with their payload, between fragments too")
def _(srv):
    with srv.wire().open() as w:
        # Alone, empty and at the largest control payload (RFC 6455 5.5).
        for payload in (b"", b"hello", bytes(range(125))):
            w.frame(OP_PING, payload)
            opcode, got = w.read_message()
            expect(opcode == OP_PONG and got == payload, f"ping {payload[:10]!r}: {opcode} {got!r}")
        # Control frames may come between fragments (RFC 6455 5.4); each gets its pong (5.5.3),
        # the message is still put together whole. The id splits across the fragments.
        w.text('{"type":"pi', fin=False)
        w.frame(OP_PING, b"first")
        w.frame(OP_CONT, 'ng","id"', fin=False)
        w.frame(OP_PONG, b"not asked for")
        w.frame(OP_PING, b"second")
        w.frame(OP_CONT, ":42}", fin=True)
        # The pongs may come before or after the reply; a pong still owed when a later ping
        # arrives may be left out (RFC 6455 5.5.3), the last ping's may not. Campfire's server
        # answers both, before the reply.
        pongs, reply = [], None
        while reply is None or pongs[-1:] != [b"second"]:
            opcode, payload = w.read_message()
            if opcode == OP_TEXT:
                expect(reply is None, f"a second reply: {payload!r}")
                reply = json.loads(payload)
            else:
                expect(opcode == OP_PONG, f"opcode {opcode}: {payload!r}")
                pongs.append(payload)
        expect(reply == {"type": "pong", "id": 42}, f"{reply}")
        expect(pongs in ([b"first", b"second"], [b"second"]), f"pongs: {pongs}")
        w.ping_pong(43)


@case("framing: a pong nobody asked for is ignored")
def _(srv):
    with srv.wire().open() as w:
        # RFC 6455 5.5.3: an unsolicited pong expects no answer.
        w.frame(OP_PONG, b"unasked")
        w.frame(OP_PONG, b"")
        w.ping_pong()


@case("framing: empty fragments are part of the message")
def _(srv):
    with srv.wire().open() as w:
        w.text("", fin=False)
        w.frame(OP_CONT, '{"type":"ping","id":9}', fin=False)
        w.frame(OP_CONT, "", fin=True)
        reply = w.read_json()
        expect(reply == {"type": "pong", "id": 9}, f"{reply}")


def protocol_error(name, send, codes=(1002,), sent=None, group="framing"):
    @case(f"{group}: {name}")
    def _(srv):
        with srv.wire().open() as w:
            w.ping_pong()
            send(w)
            expect_failure(w, f"{group}: {name}", sent or name, codes)


# RFC 6455 5.1: a server must close the connection on an unmasked frame (1002, 7.4.1).
protocol_error("unmasked text frame -> 1002",
               lambda w: w.text('{"type":"ping","id":2}', masked=False), sent="unmasked text")
protocol_error("unmasked ping -> 1002",
               lambda w: w.frame(OP_PING, b"x", masked=False), sent="unmasked ping")
# RFC 6455 5.2: RSV bits set with no extension agreed fail the connection.
for bit in (1, 2, 3):
    protocol_error(f"RSV{bit} on a text frame -> 1002",
                   lambda w, bit=bit: w.text('{"type":"ping","id":2}', rsv=1 << (3 - bit)),
                   sent=f"text with RSV{bit}")
protocol_error("RSV1 on a ping -> 1002", lambda w: w.frame(OP_PING, b"x", rsv=4),
               sent="ping with RSV1")
protocol_error("RSV1 on a continuation -> 1002",
               lambda w: (w.text('{"type":', fin=False), w.frame(OP_CONT, '"ping"}', rsv=4)),
               sent="continuation with RSV1")
# RFC 6455 5.2: reserved opcodes fail the connection.
for op in (3, 4, 5, 6, 7, 11, 12, 13, 14, 15):
    protocol_error(f"reserved opcode {op} -> 1002",
                   lambda w, op=op: w.frame(op, b"x"), sent=f"opcode {op}")
# RFC 6455 5.2: the top bit of a 64-bit length is 0. Only the header is sent: such a frame's
# length alone is far over the message limit, so 1009 (7.4.1) fits as well as 1002.
protocol_error("64-bit length with its top bit set -> 1002 or 1009",
               lambda w: w.send(struct.pack("!BBQ", 0x81, 0xFF, (1 << 63) | 22) + os.urandom(4)),
               codes=(1002, 1009), sent="length 2^63 + 22")
# RFC 6455 5.4: continuation frames belong to a message that was started.
protocol_error("continuation with no message started -> 1002",
               lambda w: w.frame(OP_CONT, '{"type":"ping","id":2}'), sent="lone continuation")
protocol_error("new text frame inside a fragmented message -> 1002",
               lambda w: (w.text('{"type":"ping",', fin=False),
                          w.text('{"type":"ping","id":2}')),
               sent="text inside a message")
protocol_error("new binary frame inside a fragmented message -> 1002",
               lambda w: (w.text('{"type":"ping",', fin=False),
                          w.frame(OP_BINARY, b"x")),
               sent="binary inside a message")
# RFC 6455 5.5: control frames carry at most 125 bytes and are never fragmented.
protocol_error("ping with 126 bytes -> 1002",
               lambda w: w.frame(OP_PING, b"p" * 126), sent="ping, 126 bytes")
protocol_error("close with 126 bytes -> 1002",
               lambda w: w.frame(OP_CLOSE, struct.pack("!H", 1000) + b"r" * 124),
               sent="close, 126 bytes", group="closing")
protocol_error("fragmented ping (FIN=0) -> 1002",
               lambda w: w.frame(OP_PING, b"x", fin=False), sent="ping, FIN=0")
protocol_error("fragmented ping inside a message -> 1002",
               lambda w: (w.text('{"type":', fin=False), w.frame(OP_PING, b"x", fin=False)),
               sent="ping, FIN=0, mid-message")
# RFC 6455 8.1 and 7.4.1: text that is not UTF-8 fails the connection with 1007. Single-frame
# cases are in hostile_test.cpp; these are spread over fragments.
protocol_error("invalid UTF-8 in a later fragment -> 1007",
               lambda w: (w.text('{"type":"ping","x":"', fin=False),
                          w.frame(OP_CONT, b"\xc3\x28", fin=False),
                          w.frame(OP_CONT, b'"}')),
               codes=(1007,), sent="bad UTF-8, 2nd fragment")
protocol_error("message ending mid-character -> 1007",
               lambda w: (w.text(b'{"type":"ping",', fin=False),
                          w.frame(OP_CONT, b'"x":"\xe2\x82')),
               codes=(1007,), sent="text ends mid-character")
protocol_error("message ending mid-character, then an empty final fragment -> 1007",
               lambda w: (w.text(b'{"type":"ping","x":"\xe2\x82', fin=False),
                          w.frame(OP_CONT, b"")),
               codes=(1007,), sent="same, empty last fragment")


@case("utf-8: a character split across fragments is accepted")
def _(srv):
    with srv.wire().open() as w:
        # U+20AC (3 bytes) over three frames, U+1F525 (4 bytes) over two.
        euro, fire = "\u20ac".encode(), "\U0001f525".encode()
        w.text(b'{"type":"ping","id":"' + euro[:1], fin=False)
        w.frame(OP_CONT, euro[1:2], fin=False)
        w.frame(OP_CONT, euro[2:] + fire[:2], fin=False)
        w.frame(OP_CONT, fire[2:] + b'"}')
        reply = w.read_json()
        expect(reply == {"type": "pong", "id": "\u20ac\U0001f525"}, f"{reply}")
        w.ping_pong()


# Closing (RFC 6455 5.5.1, 7)

def client_close(name, code, reason=b""):
    @case("closing: " + name)
    def _(srv):
        with srv.wire().open() as w:
            w.ping_pong()
            w.close_frame(code, reason)
            # The server answers with a close frame and ends the TCP stream first (RFC 6455
            # 5.5.1, 7.1.1). Its code must be valid on the wire (parse_close); the RFC says an
            # answer typically echoes the code received, which Campfire's server does, but does
            # not require it, so the code is recorded rather than held to the echo.
            answer, _ = w.close_then_end()
            record("closing: " + name, "close " + ("empty" if code is None else str(code)),
                   answer)
            expect(answer is None or valid_on_wire(answer),
                   f"the close answer carries {answer}, which may not be sent")


client_close("1000 with a reason is answered", 1000, "bye for now".encode())
client_close("an empty close is answered", None)
for valid in (1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999):
    client_close(f"valid code {valid} is answered", valid)
client_close("a reason of 123 bytes is answered", 1000, "\u00e9".encode() * 61 + b"x")


@case("closing: frames after the client's close get no answer")
def _(srv):
    with srv.wire().open() as w:
        w.close_frame(1000)
        # After a close frame the peer sends no more data frames (RFC 6455 5.5.1); one that does
        # is not heard: no pong comes back, only the close answer.
        w.text('{"type":"ping","id":2}')
        code, _ = w.close_then_end()
        record("closing: frames after the client's close", "close 1000, text", code)
        expect(code is None or valid_on_wire(code), f"the close answer carries {code}")


protocol_error("close with a 1-byte payload -> 1002",
               lambda w: w.frame(OP_CLOSE, b"\x03"), sent="close, 1 byte", group="closing")
# RFC 6455 7.4: these may not appear in a close frame: below 1000 unused, 1004 reserved, 1005
# and 1006 and 1015 only stand for "no code" and "abnormal" locally, 1016-2999 are for
# extensions nobody has agreed to, and nothing above 4999 is defined.
for invalid in (0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535):
    protocol_error(f"invalid close code {invalid} -> 1002",
                   lambda w, c=invalid: w.close_frame(c), sent=f"close {invalid}",
                   group="closing")
# RFC 6455 5.5.1 and 8.1: the reason is UTF-8; text that is not fails the connection. The RFC
# asks for no particular code: 1007 (7.4.1, data not consistent with its type) and 1002 (a
# malformed close frame) both describe it. Campfire's server sends 1007.
protocol_error("close reason not UTF-8 -> 1007 or 1002",
               lambda w: w.close_frame(1000, b"\xff\xfe"), codes=(1007, 1002),
               sent="close 1000, bad UTF-8", group="closing")


# permessage-deflate (RFC 7692)

def hello(w, id_=1):
    w.text(json.dumps({"type": "hello", "id": id_, "protocol": 1, "name": "conformance"}))
    reply = w.read_json()
    expect(reply.get("type") == "welcome", f"hello answered {reply}")


@case("deflate: the server's messages are compressed and share one window")
def _(srv):
    with srv.wire() as w:
        expect(w.open_deflate() is not None, "the offer was not taken")
        sizes, texts = [], []
        # Two requests the server refuses alike: two error answers that differ in their id,
        # each well inside the server's window.
        for id_ in (2, 3):
            w.text(json.dumps({"type": "hello", "id": id_, "protocol": 1, "name": "x" * 40}))
            f = w.read_frame()
            expect(f.opcode == OP_TEXT and f.fin and f.rsv == 4,
                   f"a long answer not sent compressed in one frame: {f}")
            text = w.inflate(f.payload)
            reply = json.loads(text.decode("utf-8"))
            expect(reply.get("type") == "error" and reply.get("id") == id_, f"answered {reply}")
            sizes.append(len(f.payload))
            texts.append(len(text))
        # The second answer repeats the first but for its id: in the first's window it is a
        # few back-references (RFC 7692 7.2.3: context takeover).
        expect(sizes[0] < texts[0], f"compressed {sizes[0]} bytes of {texts[0]}")
        expect(sizes[1] * 4 < sizes[0], f"the second answer took {sizes[1]} bytes, "
               f"the first {sizes[0]}: no shared window")
        w.ping_pong(4)


@case("deflate: a compressed request is answered")
def _(srv):
    with srv.wire() as w:
        w.open_deflate()
        w.compressed_text(json.dumps({"type": "ping", "id": 7}))
        expect(w.read_json() == {"type": "pong", "id": 7}, "no pong")
        # Each message starts afresh (client_no_context_takeover): the same text again.
        w.compressed_text(json.dumps({"type": "ping", "id": 8}))
        expect(w.read_json() == {"type": "pong", "id": 8}, "no second pong")
        w.ping_pong(9)


@case("deflate: a compressed request in three fragments is answered")
def _(srv):
    with srv.wire() as w:
        w.open_deflate()
        w.compressed_text(padded_ping(5, 400), fragments=3)
        expect(w.read_json() == {"type": "pong", "id": 5}, "no pong")


@case("deflate: an empty compressed message is refused as JSON, the connection kept")
def _(srv):
    with srv.wire() as w:
        w.open_deflate()
        w.compressed_text("")
        reply = w.read_json()
        expect(reply.get("type") == "error" and reply.get("code") == "bad_json",
               f"answered {reply}")
        w.ping_pong()


def deflate_error(name, send, codes=(1002,), sent=None):
    @case(f"deflate: {name}")
    def _(srv):
        with srv.wire() as w:
            expect(w.open_deflate() is not None, "the offer was not taken")
            w.ping_pong()
            send(w)
            expect_failure(w, f"deflate: {name}", sent or name, codes)


# RFC 7692 6: RSV1 marks a message's first frame only, never a control frame or continuation.
deflate_error("RSV1 on a continuation -> 1002",
              lambda w: (w.text('{"type":', fin=False), w.frame(OP_CONT, '"ping"}', rsv=4)),
              sent="deflate, continuation RSV1")
deflate_error("RSV1 on a ping -> 1002", lambda w: w.frame(OP_PING, b"x", rsv=4),
              sent="deflate, ping with RSV1")
deflate_error("RSV2 on a text frame -> 1002",
              lambda w: w.text('{"type":"ping","id":2}', rsv=2), sent="deflate, RSV2")
# RFC 7692 8: data that does not inflate fails the connection.
deflate_error("data that is not deflate -> 1002",
              lambda w: w.frame(OP_TEXT, b"\xff\xff\xff\xff\xff", rsv=4),
              sent="deflate, not deflate")
# The size limit counts the inflated message (RFC 6455 7.4.1: 1009).
deflate_error("a message inflating past the limit -> 1009",
              lambda w: w.compressed_text(b" " * (300 * 1024)), codes=(1009,),
              sent="deflate, 300 KiB inflated")
deflate_error("compressed text that is not UTF-8 -> 1007",
              lambda w: w.compressed_text(b'{"type":"ping","id":1,"x":"\xc3\x28"}'),
              codes=(1007,), sent="deflate, bad UTF-8")


def games_lists(w, ids):
    """Asks for the games list once per id; returns how many answers came compressed (each
    must inflate as Wire.read_message's decompressor expects)."""
    hello(w)
    before = w.compressed_messages
    for id_ in ids:
        w.text(json.dumps({"type": "list_games", "id": id_}))
        expect(w.read_json().get("id") == id_, "no games")
    return w.compressed_messages - before


@case("deflate: server_no_context_takeover is honoured")
def _(srv):
    with srv.wire() as w:
        params = w.open_deflate("permessage-deflate; server_no_context_takeover")
        expect(params is not None and "server_no_context_takeover" in params,
               f"answered {params}")
        # Every message must inflate on its own (read_message starts a fresh decompressor).
        expect(games_lists(w, (2, 3)) == 2, "not every list came compressed")


@case("deflate: server_max_window_bits=10 is honoured")
def _(srv):
    with srv.wire() as w:
        params = w.open_deflate("permessage-deflate; server_max_window_bits=10")
        expect(params is not None and params.get("server_max_window_bits") == "10",
               f"answered {params}")
        # A decompressor with a 1 KiB window fails on any reference further back.
        expect(games_lists(w, (2, 3, 4)) == 3, "not every list came compressed")


@case("deflate: an offer with an unknown parameter is declined")
def _(srv):
    with srv.wire() as w:
        params = w.open_deflate("permessage-deflate; colour=blue")
        expect(params is None, f"answered {params}")
        expect(games_lists(w, (2,)) == 0, "compressed with no extension agreed")


@case("deflate: a window the server cannot use is declined, the next offer taken")
def _(srv):
    with srv.wire() as w:
        params = w.open_deflate("permessage-deflate; server_max_window_bits=8, "
                                "permessage-deflate; client_max_window_bits")
        expect(params == {"client_no_context_takeover": None}, f"answered {params}")
        w.ping_pong()


# --- Running -------------------------------------------------------------------------------------

def run_cases(srv, only):
    """Runs every case whose name contains `only`; returns (passed, failed, known)."""
    passed, failed, known = 0, [], []
    for name, fn in CASES:
        if only not in name:
            continue
        try:
            fn(srv)
            error = None
        except Failed as e:
            error = str(e)
        except (Ended, OSError, ValueError) as e:
            error = f"{type(e).__name__}: {e}"
        if name in KNOWN_DIFFERENCES:
            if error is None:
                failed.append(name)
                print(f"FAIL: {name}: passes now; take it off KNOWN_DIFFERENCES")
            else:
                known.append(name)
                print(f"known difference: {name}: {error}")
        elif error is None:
            passed += 1
            print(f"ok: {name}")
        else:
            failed.append(name)
            print(f"FAIL: {name}: {error}")
        sys.stdout.flush()
    return passed, failed, known


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", default=os.environ.get("CAMPFIRE_SERVER"),
                        help="the campfire-server binary (or $CAMPFIRE_SERVER)")
    parser.add_argument("-k", dest="only", default="", help="run only cases containing this")
    args = parser.parse_args()
    if not args.server:
        parser.error("--server is needed")
    started = time.monotonic()
    workdir = tempfile.mkdtemp(prefix="campfire-wsconf-")
    try:
        srv = Server(args.server, workdir)
        try:
            passed, failed, known = run_cases(srv, args.only)
            alive = srv.proc.poll() is None
        finally:
            srv.stop()
        if not alive:
            failed.append("the server stayed up")
            print(f"FAIL: the server exited with {srv.proc.returncode} during the run")
        elif srv.proc.returncode != 0:
            # Under the sanitizers a leak or an error found at the end shows here.
            failed.append("the server stopped cleanly")
            print(f"FAIL: the server exited with {srv.proc.returncode} when asked to stop")
        if failed:
            with open(os.path.join(workdir, "server.log")) as f:
                print("--- the end of the server's log ---\n" + f.read()[-4000:])
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print()
    width = max((len(r[0]) for r in CLOSES), default=10)
    print(f"{'case':<{width}}  {'sent':<26}  answer")
    for name, sent, code in CLOSES:
        print(f"{name:<{width}}  {sent:<26}  {code}")
    print()
    for name in known:
        print(f"known difference: {name}: {KNOWN_DIFFERENCES[name]}")
    print(f"websocket conformance: {passed} passed, {len(failed)} failed, "
          f"{len(known)} known differences, {time.monotonic() - started:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
