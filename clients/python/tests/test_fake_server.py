"""A server that does not speak the protocol gives a clear error, never a hang or a retry loop."""

import asyncio
import os
import shutil
import socket
import tempfile
import unittest

from strokes_client import AsyncClient, Backoff, Client, ConnectionLost, DaemonError, ProtocolError

from harness import HELLO, FakeServer, read_request


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


if __name__ == "__main__":
    unittest.main()
