"""A server that does not speak the protocol gives a clear error, never a hang or a retry loop."""

import asyncio
import json
import os
import shutil
import socket
import tempfile
import threading
import time
import unittest
from unittest import mock

from strokes_client import AsyncClient, Backoff, Client, ConnectionLost, DaemonError, Gap, Moved, ProtocolError, Snapshot

from harness import HELLO, FakeServer, read_request

DEEP = b"[" * 100000 + b"]" * 100000 + b"\n"  # 200 KB of nesting: far beyond Python's recursion limit


def sends(*chunks: bytes):
    def script(connection: socket.socket) -> None:
        for chunk in chunks:
            connection.sendall(chunk)
    return script


def subscribed_then(*chunks: bytes):
    """Greets, answers the subscribe, then sends `chunks`."""
    def script(connection: socket.socket) -> None:
        connection.sendall(HELLO)
        request = read_request(connection)
        connection.sendall(b'{"type":"reply","id":%d,"request":"subscribe","seq":0}\n' % request["id"]
                           + b'{"type":"snapshot","seq":0,"strokes":[]}\n')
        for chunk in chunks:
            connection.sendall(chunk)
    return script



def consume_in_thread(subscription):
    """Iterates ``subscription()`` on a daemon thread; returns the thread and a list that gets what
    ended the iteration."""
    outcome = []
    def consume():
        try:
            for _ in subscription():
                pass
        except Exception as e:
            outcome.append(e)
    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    return thread, outcome

class FakeServerTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="strokes-fake-")
        self.servers = []

    def tearDown(self):
        for server in self.servers:
            server.close()
        shutil.rmtree(self.directory, ignore_errors=True)

    def serve(self, script) -> str:

        sub = os.path.join(self.directory, str(len(self.servers)))
        os.mkdir(sub)
        server = FakeServer(sub, script)
        self.servers.append(server)
        return server.path

    def assert_connect_fails(self, script, error, text):
        path = self.serve(script)
        with self.assertRaises(error) as caught:
            Client.connect(path, timeout=10)
        self.assertIn(text, str(caught.exception))

        async def run():
            client = await AsyncClient.connect(path)
            await client.close()
        with self.assertRaises(error) as caught:
            asyncio.run(asyncio.wait_for(run(), 10))
        self.assertIn(text, str(caught.exception))

    def test_garbage_greeting(self):
        self.assert_connect_fails(sends(b"SSH-2.0-OpenSSH_9.2\r\n"), ProtocolError, "not a JSON line")

    def test_json_that_is_not_a_hello(self):
        self.assert_connect_fails(sends(b'{"type":"goodbye","reason":"shutdown"}\n'), ProtocolError, "expected the daemon's 'hello'")
        self.assert_connect_fails(sends(HELLO.replace(b'"protocol":1', b'"protocol":2')), ProtocolError,
                                  "the daemon speaks protocol 2")

    def test_a_line_without_end(self):
        def script(connection):
            connection.sendall(b"x" * 5000)
            connection.recv(1)  # hold the connection open: the client must stop at its limit
        path = self.serve(script)
        with self.assertRaises(ProtocolError) as caught:
            Client.connect(path, timeout=10, max_line=1000)
        self.assertIn("longer than 1000 bytes", str(caught.exception))

        async def run():
            client = await AsyncClient.connect(path, max_line=1000)
            await client.close()
        with self.assertRaises(ProtocolError):
            asyncio.run(asyncio.wait_for(run(), 10))

    def test_closed_before_greeting_and_refusals(self):
        self.assert_connect_fails(sends(), ConnectionLost, "closed the connection")
        self.assert_connect_fails(
            sends(b'{"type":"error","id":null,"error":"tooManyClients","message":"the daemon serves 256 clients"}\n'),
            DaemonError, "tooManyClients")

    def test_garbage_mid_stream_is_raised_not_retried(self):
        path = self.serve(subscribed_then(b'{"type":"began","seq":1,"stroke":"x"}\n'))
        events = []
        with Client.connect(path, timeout=10) as client, self.assertRaises(ProtocolError) as caught:
            for event in client.subscribe(backoff=Backoff(attempts=1)):
                events.append(event)
        self.assertIn("'began' key 'stroke' is not an integer", str(caught.exception))
        self.assertEqual([type(e).__name__ for e in events], ["Snapshot"])
        self.assertEqual(len(self.servers), 1)

        async def run():
            async with await AsyncClient.connect(path) as client:
                async for _ in client.subscribe(backoff=Backoff(attempts=1)):
                    pass
        with self.assertRaises(ProtocolError):
            asyncio.run(asyncio.wait_for(run(), 10))

    def test_lost_connection_without_reconnect_is_raised(self):
        path = self.serve(subscribed_then())
        with Client.connect(path, timeout=10) as client, self.assertRaises(ConnectionLost):
            for _ in client.subscribe(reconnect=False):
                pass

    def test_reconnecting_gives_up_after_its_attempts(self):
        path = self.serve(subscribed_then())
        client = Client.connect(path, timeout=10)
        self.servers[0].close()  # nobody accepts any more
        with client, self.assertRaises(ConnectionLost) as caught:
            for _ in client.subscribe(backoff=Backoff(initial=0.01, attempts=3)):
                pass
        self.assertIn("gave up reconnecting after 3 attempts", str(caught.exception))

    def test_closing_the_client_ends_its_subscription(self):
        path = self.serve(subscribed_then(b'{"type":"began","seq":1,"stroke":1,"device":1,"frame":1,"slot":0,'
                                          b'"trackingId":1,"time":1,"x":1,"y":1,"nx":0,"ny":0}\n'))
        client = Client.connect(path, timeout=10)
        seen = []
        with self.assertRaises(ConnectionLost) as caught:
            for event in client.subscribe(backoff=Backoff(initial=0.01)):
                seen.append(type(event).__name__)
                client.close()
        self.assertEqual(seen, ["Snapshot"])
        self.assertIn("closed", str(caught.exception))

    def assert_subscription_raises(self, path, error, text):
        """Both clients' subscriptions (without reconnecting) end with `error`, not a hang."""
        with Client.connect(path, timeout=10) as client, self.assertRaises(error) as caught:
            for _ in client.subscribe(reconnect=False):
                pass
        self.assertIn(text, str(caught.exception))

        async def run():
            async with await AsyncClient.connect(path) as client:
                async for _ in client.subscribe(reconnect=False):
                    pass
        with self.assertRaises(error) as caught:
            asyncio.run(asyncio.wait_for(run(), 10))
        self.assertIn(text, str(caught.exception))

    def test_json_nested_too_deep_is_a_protocol_error(self):
        self.assert_subscription_raises(self.serve(subscribed_then(DEEP)), ProtocolError, "not a JSON line")

    def test_a_reply_id_that_is_not_an_integer_string_or_null_is_a_protocol_error(self):
        path = self.serve(subscribed_then(b'{"type":"reply","id":[1],"request":"ping"}\n'))
        self.assert_subscription_raises(path, ProtocolError, "key 'id' is not an integer, a string or null")

    def test_the_asyncio_reader_passes_on_any_exception(self):
        """Whatever ends the reader task reaches the iterator and the requests awaiting a reply."""
        from strokes_client import aio
        def script(connection):
            connection.sendall(HELLO)
            request = read_request(connection)
            connection.sendall(b'{"type":"reply","id":%d,"request":"subscribe","seq":0}\n' % request["id"]
                               + b'{"type":"snapshot","seq":0,"strokes":[]}\n')
            read_request(connection)  # the ping, answered with a line that breaks the reader
            connection.sendall(b'{"type":"break"}\n')
            connection.recv(1)
        path = self.serve(script)
        parse = aio.parse_line

        def breaking(line):
            if b"break" in line:
                raise RuntimeError("a bug in the reader")
            return parse(line)

        async def run():
            async with await AsyncClient.connect(path) as client:
                async for _ in client.subscribe(reconnect=False):
                    with self.assertRaisesRegex(RuntimeError, "a bug in the reader"):
                        await client.ping()
                    with self.assertRaisesRegex(RuntimeError, "a bug in the reader"):
                        await client.ping()  # a request after the reader ended
        with mock.patch.object(aio, "parse_line", breaking), self.assertRaisesRegex(RuntimeError, "a bug in the reader"):
            asyncio.run(asyncio.wait_for(run(), 10))

    def test_a_reply_to_another_request_is_a_protocol_error(self):
        def script(connection):
            connection.sendall(HELLO)
            request = read_request(connection)
            connection.sendall(b'{"type":"reply","id":%d,"request":"ping"}\n' % request["id"])
            connection.recv(1)
        self.assert_subscription_raises(self.serve(script), ProtocolError,
                                        "a 'ping' reply to request 1, a 'subscribe'")

    def test_reconnections_that_do_not_get_the_subscription_back_are_backed_off_and_counted(self):
        """A server that greets and then closes (or says goodbye) on every connection."""
        for farewell in (b"", b'{"type":"goodbye","reason":"shutdown"}\n'):
            connections = []
            def script(connection, farewell=farewell):
                connections.append(time.monotonic())
                connection.sendall(HELLO + farewell)
            path = self.serve(script)
            with self.subTest(farewell=farewell), Client.connect(path, timeout=10) as client:
                thread, outcome = consume_in_thread(lambda: client.subscribe(backoff=Backoff(initial=0.05, attempts=3)))
                thread.join(10)
                if thread.is_alive():
                    client.close()  # ends the loop at its next reconnection
                    thread.join(10)
                    self.fail(f"still reconnecting after 10 s: {len(connections)} connections")
                self.assertIsInstance(outcome[0], ConnectionLost)
                self.assertIn("gave up reconnecting after 3 attempts", str(outcome[0]))
                # The first connection, then 3 reconnections, the last two after 0.05 and 0.1 s.
                self.assertEqual(len(connections), 4)
                self.assertGreaterEqual(connections[-1] - connections[1], 0.14)

            connections.clear()

            async def run():
                async with await AsyncClient.connect(path) as client:
                    async for _ in client.subscribe(backoff=Backoff(initial=0.05, attempts=3)):
                        pass
            with self.subTest(farewell=farewell, client="AsyncClient"):
                with self.assertRaises(ConnectionLost) as caught:
                    asyncio.run(asyncio.wait_for(run(), 10))
                self.assertIn("gave up reconnecting after 3 attempts", str(caught.exception))
                self.assertEqual(len(connections), 4)
                self.assertGreaterEqual(connections[-1] - connections[1], 0.14)

    def test_a_server_that_answers_the_subscribe_and_closes_is_not_reconnected_to_in_a_loop(self):
        """Each reconnection gets its subscription back, so none fails; each is lost at once.
        Without a wait, the client reconnected as fast as the server accepted (hundreds a second)."""
        connections = []
        answer = subscribed_then()
        def script(connection):
            connections.append(time.monotonic())
            answer(connection)
        path = self.serve(script)
        backoff = Backoff(initial=0.05, factor=2.0, maximum=2.0)
        with Client.connect(path, timeout=10) as client:
            snapshots = 0
            def consume():
                nonlocal snapshots
                try:
                    for event in client.subscribe(backoff=backoff):
                        snapshots += isinstance(event, Snapshot)
                except ConnectionLost:
                    pass
            thread = threading.Thread(target=consume, daemon=True)
            thread.start()
            time.sleep(1.5)
            client.close()
            thread.join(10)
        # Waits of 0.05, 0.1, 0.2, 0.4 and 0.8 s: at most 6 connections in 1.5 s (fewer on a loaded
        # machine), each subscribed, each after at least its wait.
        self.assertGreaterEqual(len(connections), 2)
        self.assertLessEqual(len(connections), 7, f"{len(connections)} connections in 1.5 s")
        self.assertGreaterEqual(snapshots, len(connections) - 1)
        for i, (a, b) in enumerate(zip(connections, connections[1:])):
            self.assertGreaterEqual(b - a, 0.9 * backoff.delay(i + 1), f"connection {i + 1}")

        connections.clear()

        async def run():
            async with await AsyncClient.connect(path) as client:
                async def consume():
                    async for _ in client.subscribe(backoff=backoff):
                        pass
                task = asyncio.ensure_future(consume())
                await asyncio.sleep(1.5)
                task.cancel()
                try:
                    await task
                except (asyncio.CancelledError, ConnectionLost):
                    pass
        asyncio.run(asyncio.wait_for(run(), 10))
        self.assertGreaterEqual(len(connections), 2)
        self.assertLessEqual(len(connections), 7, f"AsyncClient: {len(connections)} connections in 1.5 s")
        for i, (a, b) in enumerate(zip(connections, connections[1:])):
            self.assertGreaterEqual(b - a, 0.9 * backoff.delay(i + 1), f"AsyncClient: connection {i + 1}")

    def test_a_request_inside_a_subscription_that_fell_behind_returns(self):
        """AsyncClient with a full subscription queue: the reader goes on reading replies, and the
        subscription resumes after the last message it delivered."""
        last = 100
        subscribes = []

        def script(connection):
            connection.sendall(HELLO)
            file = connection.makefile("rb")
            while line := file.readline():
                request = json.loads(line)
                if request["request"] == "subscribe":
                    subscribes.append(request)
                    after = request.get("resumeAfter", 0)
                    out = b'{"type":"reply","id":%d,"request":"subscribe","seq":%d,"resumed":true}\n' % (request["id"], after)
                    if "resumeAfter" not in request:
                        out += b'{"type":"snapshot","seq":0,"strokes":[]}\n'
                    for seq in range(after + 1, last + 1):
                        out += (b'{"type":"moved","seq":%d,"stroke":1,"device":1,"frame":%d,"slot":0,"trackingId":1,'
                                b'"time":1,"x":1,"y":1,"nx":0,"ny":0}\n' % (seq, seq))
                    connection.sendall(out)
                else:
                    connection.sendall(b'{"type":"reply","id":%d,"request":"%s"}\n' % (request["id"], request["request"].encode()))
        path = self.serve(script)

        async def run():
            seen = []
            async with await AsyncClient.connect(path, queue_size=16) as client:
                async for event in client.subscribe(backoff=Backoff(initial=0.01, attempts=3)):
                    seen.append(event)
                    if len(seen) == 1:
                        await asyncio.sleep(0.5)  # busy: the stream fills the queue meanwhile
                        await client.ping()
                    if isinstance(event, Moved) and event.seq == last:
                        return seen
        seen = asyncio.run(asyncio.wait_for(run(), 10))
        self.assertIsInstance(seen[0], Snapshot)
        self.assertEqual([e.seq for e in seen[1:]], list(range(1, last + 1)))
        self.assertGreaterEqual(len(subscribes), 2)
        self.assertLess(subscribes[1]["resumeAfter"], last)


    # Findings of adversarial round 16.

    def test_a_reconnection_that_gets_no_greeting_fails(self):
        """Finding 106: a socket that accepts and never greets (a stopped daemon) blocked the
        reconnection for good; it must fail, so that backoff.attempts ends the subscription."""
        connections = []
        answer = subscribed_then(b'{"type":"goodbye","reason":"shutdown"}\n')
        def script(connection):
            connections.append(time.monotonic())
            if len(connections) == 1:
                answer(connection)
            else:
                connection.recv(1)  # accepted, never greeted
        path = self.serve(script)
        with mock.patch.object(Client, "greeting_timeout", 0.3, create=True), \
                mock.patch.object(AsyncClient, "greeting_timeout", 0.3, create=True):
            for timeout in (None, 10):
                connections.clear()
                def subscription(timeout=timeout):
                    with Client.connect(path, timeout=timeout) as client:
                        yield from client.subscribe(backoff=Backoff(initial=0.01, attempts=2))
                thread, outcome = consume_in_thread(subscription)
                thread.join(10)
                self.assertFalse(thread.is_alive(), f"Client(timeout={timeout}): still waiting for a greeting")
                self.assertIsInstance(outcome[0], ConnectionLost)
                self.assertIn("gave up reconnecting after 2 attempts", str(outcome[0]))
                self.assertIn("no greeting within 0.3 s", str(outcome[0]))
                self.assertEqual(len(connections), 3)

            connections.clear()
            async def run():
                async with await AsyncClient.connect(path) as client:
                    async for _ in client.subscribe(backoff=Backoff(initial=0.01, attempts=2)):
                        pass
            with self.assertRaises(ConnectionLost) as caught:
                asyncio.run(asyncio.wait_for(run(), 10))
            self.assertIn("gave up reconnecting after 2 attempts", str(caught.exception))
            self.assertEqual(len(connections), 3)

    def test_a_second_subscribe_on_the_connection_starts_with_its_own_snapshot(self):
        """Finding 107: the first subscription's unread stream messages (kept while a request
        waited, or still in the socket) came out of the second one before its snapshot."""
        def event(kind, seq):
            return (b'{"type":"%s","seq":%d,"stroke":%d,"device":1,"frame":%d,"slot":0,"trackingId":1,'
                    b'"time":1,"x":1,"y":1,"nx":0,"ny":0}\n' % (kind, seq, seq, seq))
        def script(connection):
            connection.sendall(HELLO)
            file = connection.makefile("rb")
            subscribes = 0
            while line := file.readline():
                request = json.loads(line)
                id = request["id"]
                if request["request"] == "subscribe":
                    subscribes += 1
                    seq = 10 * (subscribes - 1)
                    out = b'{"type":"reply","id":%d,"request":"subscribe","seq":%d}\n' % (id, seq)
                    out += b'{"type":"snapshot","seq":%d,"strokes":[]}\n' % seq
                    if subscribes == 1:
                        out += event(b"began", 1) + event(b"began", 2)
                    else:
                        out += event(b"moved", seq + 1)
                    connection.sendall(out)
                else:  # the stream the first subscription has not read yet, then the reply
                    connection.sendall(event(b"ended", 3) + event(b"ended", 4)
                                       + b'{"type":"reply","id":%d,"request":"%s"}\n' % (id, request["request"].encode()))
        path = self.serve(script)

        def first_two(iterator):
            return [(type(e).__name__, getattr(e, "seq", None)) for e in (next(iterator), next(iterator))]
        expected = [[("Snapshot", 0), ("Began", 1)], [("Snapshot", 10), ("Moved", 11)], [("Snapshot", 20), ("Moved", 21)]]
        with Client.connect(path, timeout=10) as client:
            seen = [first_two(client.subscribe(reconnect=False))]
            client.ping()  # began 2, ended 3 and 4 are kept while it waits
            seen.append(first_two(client.subscribe(reconnect=False)))
            seen.append(first_two(client.subscribe(reconnect=False)))  # nothing kept: dropped from the socket
        self.assertEqual(seen, expected)

        async def run():
            async with await AsyncClient.connect(path) as client:
                async def first_two_async(iterator):
                    return [(type(e).__name__, getattr(e, "seq", None)) for e in (await anext(iterator), await anext(iterator))]
                seen = [await first_two_async(client.subscribe(reconnect=False))]
                await client.ping()
                await asyncio.sleep(0.1)
                seen.append(await first_two_async(client.subscribe(reconnect=False)))
                seen.append(await first_two_async(client.subscribe(reconnect=False)))
                return seen
        self.assertEqual(asyncio.run(asyncio.wait_for(run(), 10)), expected)

    def test_a_request_keeps_at_most_queue_size_stream_messages_then_the_subscription_resumes(self):
        """Finding 108: the blocking client kept every stream message that came while a request
        waited for its reply. Now at most queue_size; then it resumes after what it delivered."""
        last = 100
        subscribes = []
        def moved(seq):
            return (b'{"type":"moved","seq":%d,"stroke":1,"device":1,"frame":%d,"slot":0,"trackingId":1,'
                    b'"time":1,"x":1,"y":1,"nx":0,"ny":0}\n' % (seq, seq))
        def script(connection):
            connection.sendall(HELLO)
            file = connection.makefile("rb")
            while line := file.readline():
                request = json.loads(line)
                if request["request"] == "subscribe":
                    subscribes.append(request)
                    after = request.get("resumeAfter")
                    out = b'{"type":"reply","id":%d,"request":"subscribe","seq":0%s}\n' % (
                        request["id"], b',"resumed":true' if after is not None else b'')
                    if after is None:
                        out += b'{"type":"snapshot","seq":0,"strokes":[]}\n'
                    else:
                        out += b"".join(moved(seq) for seq in range(after + 1, last + 1))
                    connection.sendall(out)
                else:  # the whole stream comes before the reply
                    connection.sendall(b"".join(moved(seq) for seq in range(1, last + 1))
                                       + b'{"type":"reply","id":%d,"request":"ping"}\n' % request["id"])
        path = self.serve(script)
        seen, kept = [], []
        with Client.connect(path, timeout=10, queue_size=16) as client:
            for event in client.subscribe(backoff=Backoff(initial=0.01, attempts=3)):
                seen.append(event)
                if len(seen) == 1:
                    client.ping()
                    kept.append(len(client._pending))
                if isinstance(event, Moved) and event.seq == last:
                    break
        self.assertEqual(kept, [16])
        self.assertIsInstance(seen[0], Snapshot)
        self.assertEqual([e.seq for e in seen[1:]], list(range(1, last + 1)))
        self.assertEqual([s.get("resumeAfter") for s in subscribes], [None, 16])

    def test_a_resume_answered_by_slow_client_becomes_a_gap_and_a_snapshot(self):
        """Finding 110: a resume whose backlog does not fit the client's queue is answered by
        goodbye slowClient alone; the client sent the same resumeAfter again for ever."""
        subscribes = []
        def script(connection):
            connection.sendall(HELLO)
            request = read_request(connection)
            subscribes.append(request.get("resumeAfter"))
            id = request["id"]
            if len(subscribes) == 1:
                connection.sendall(b'{"type":"reply","id":%d,"request":"subscribe","seq":0}\n' % id
                                   + b'{"type":"snapshot","seq":0,"strokes":[]}\n'
                                   + b'{"type":"deviceRemoved","seq":1,"device":1}\n'
                                   + b'{"type":"goodbye","reason":"slowClient"}\n')
            elif "resumeAfter" in request:
                connection.sendall(b'{"type":"goodbye","reason":"slowClient"}\n')
            else:
                connection.sendall(b'{"type":"reply","id":%d,"request":"subscribe","seq":50}\n' % id
                                   + b'{"type":"snapshot","seq":50,"strokes":[]}\n'
                                   + b'{"type":"deviceRemoved","seq":51,"device":2}\n')
                connection.recv(1)
        path = self.serve(script)
        expected = ["Snapshot 0", "DeviceRemoved 1", "Goodbye None", "Gap slowClient 1", "Snapshot 50", "DeviceRemoved 51"]
        def name(event):
            if isinstance(event, Gap):
                return f"Gap {event.reason} {event.last_seq}"
            return f"{type(event).__name__} {getattr(event, 'seq', None)}"
        seen = []
        with Client.connect(path, timeout=10) as client:
            for event in client.subscribe(backoff=Backoff(initial=0.01, attempts=3)):
                seen.append(name(event))
                if len(seen) == len(expected):
                    break
        self.assertEqual(seen, expected)
        self.assertEqual(subscribes, [None, 1, None])

        subscribes.clear()
        async def run():
            seen = []
            async with await AsyncClient.connect(path) as client:
                async for event in client.subscribe(backoff=Backoff(initial=0.01, attempts=3)):
                    seen.append(name(event))
                    if len(seen) == len(expected):
                        return seen
        self.assertEqual(asyncio.run(asyncio.wait_for(run(), 10)), expected)
        self.assertEqual(subscribes, [None, 1, None])

    def test_a_sequence_number_that_goes_back_is_a_protocol_error(self):
        """Finding 109: began 2, began 4, ended 3: the ended was dropped silently."""
        def event(kind, seq, stroke):
            return (b'{"type":"%s","seq":%d,"stroke":%d,"device":1,"frame":%d,"slot":0,"trackingId":1,'
                    b'"time":1,"x":1,"y":1,"nx":0,"ny":0}\n' % (kind, seq, stroke, seq))
        path = self.serve(subscribed_then(event(b"began", 2, 1), event(b"began", 4, 2), event(b"ended", 3, 1)))
        self.assert_subscription_raises(path, ProtocolError, "'ended' with seq 3 after seq 4")

    def test_history_all_counts_what_was_missed(self):
        """Finding 111: history_all() threw the pages' missed counts away."""
        pages = [b'"cursor":"a"', b'"cursor":"b","missed":3', b'"missed":2']
        def script(connection):
            connection.sendall(HELLO)
            for page in pages:
                request = read_request(connection)
                connection.sendall(b'{"type":"reply","id":%d,"request":"history","strokes":[],%s}\n' % (request["id"], page))
            connection.recv(1)
        path = self.serve(script)
        with Client.connect(path, timeout=10) as client:
            history = client.history_all()
        self.assertIsInstance(history, list)
        self.assertEqual((history, history.missed), ([], 5))

        async def run():
            async with await AsyncClient.connect(path) as client:
                return await client.history_all()
        history = asyncio.run(asyncio.wait_for(run(), 10))
        self.assertIsInstance(history, list)
        self.assertEqual((history, history.missed), ([], 5))

    def test_a_read_timeout_leaves_the_client_usable(self):
        """Finding 112: after one TimeoutError every read raised OSError (socket.makefile); the
        part of a line read before the timeout must not be lost, and a subscription waiting for
        the stream is not ended by the request timeout."""
        def script(connection):
            connection.sendall(HELLO)
            request = read_request(connection)  # a ping answered late, in two halves
            line = b'{"type":"reply","id":%d,"request":"ping"}\n' % request["id"]
            connection.sendall(line[:10])
            time.sleep(0.6)
            connection.sendall(line[10:])
            request = read_request(connection)  # a ping answered at once
            connection.sendall(b'{"type":"reply","id":%d,"request":"ping"}\n' % request["id"])
            request = read_request(connection)  # the subscribe: a quiet stream
            connection.sendall(b'{"type":"reply","id":%d,"request":"subscribe","seq":0}\n' % request["id"]
                               + b'{"type":"snapshot","seq":0,"strokes":[]}\n')
            time.sleep(0.6)
            connection.sendall(b'{"type":"deviceRemoved","seq":1,"device":1}\n')
            connection.recv(1)
        path = self.serve(script)
        with Client.connect(path, timeout=0.3) as client:
            with self.assertRaises(TimeoutError):
                client.ping()
            self.assertEqual(client.ping().id, 2)  # the late reply to 1 is skipped
            seen = []
            for event in client.subscribe(reconnect=False):
                seen.append(type(event).__name__)
                if len(seen) == 2:
                    break
        self.assertEqual(seen, ["Snapshot", "DeviceRemoved"])

if __name__ == "__main__":
    unittest.main()
