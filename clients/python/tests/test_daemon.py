"""The client against a running `strokes daemon`: whole replays, resuming after a dropped
connection, a resume point too old, a daemon restart, requests."""

import asyncio
import os
import threading
import time
import unittest
from typing import Dict, List

from strokes_client import (AsyncClient, Backoff, Began, Cancelled, Client, DaemonError, DeviceAdded, DevicesReply,
                            Ended, Gap, Goodbye, Moved, Snapshot, StatsReply, StrokeEvent, STREAM_TYPES)

from harness import Daemon, Proxy, golden

FOUR_FINGERS = "03-atmel-maxtouch-touchscreen-4finger-drag"
PEN = "18-wacom-dth2242-pen-buttons"
TEN_FINGERS = "01-wacom-dth2242-touchscreen-10finger.evemu"
QUICK = Backoff(initial=0.02, maximum=0.2, attempts=200)


def without_seq(wire: dict) -> dict:
    return {k: v for k, v in wire.items() if k != "seq"}


def stroke_events_of(golden_name: str) -> List[dict]:
    return [m for m in golden(golden_name) if m["type"] != "replayEnded"]


def seqs(events) -> List[int]:
    return [e.seq for e in events if isinstance(e, STREAM_TYPES)]


class DaemonTestCase(unittest.TestCase):
    def setUp(self):
        self.daemons: List[Daemon] = []

    def tearDown(self):
        for d in self.daemons:
            d.close()

    def daemon(self, recording: str, *args: str, **options) -> Daemon:
        d = Daemon(recording, *args, **options)
        self.daemons.append(d)
        return d


class WholeReplayTests(DaemonTestCase):
    """``resume_after=0`` asks for everything the daemon still holds: a whole short recording."""

    def check_replay(self, events, name: str):
        expected = stroke_events_of(f"{name}.jsonl")
        strokes = [e for e in events if isinstance(e, StrokeEvent)]
        self.assertEqual([without_seq(e.to_wire()) for e in strokes], expected)
        self.assertEqual([without_seq(e.raw) for e in strokes], expected)  # nothing the types do not know
        self.assertIsInstance(events[0], DeviceAdded)
        self.assertEqual(seqs(events), list(range(1, len(events) + 1)))

    def test_blocking_client_receives_the_replay_transcript(self):
        for name in (FOUR_FINGERS, PEN):
            with self.subTest(recording=name):
                d = self.daemon(f"{name}.evemu", "--speed", "0", "--no-loop")
                total = len(stroke_events_of(f"{name}.jsonl")) + 1  # and deviceAdded
                events = []
                with Client.connect(d.socket_path, timeout=10) as client:
                    for event in client.subscribe(resume_after=0, reconnect=False):
                        events.append(event)
                        if len(events) == total:
                            break
                self.check_replay(events, name)

    def test_asyncio_client_receives_the_replay_transcript(self):
        d = self.daemon(f"{FOUR_FINGERS}.evemu", "--speed", "0", "--no-loop")
        total = len(stroke_events_of(f"{FOUR_FINGERS}.jsonl")) + 1

        async def run():
            events = []
            async with await AsyncClient.connect(d.socket_path) as client:
                async for event in client.subscribe(resume_after=0, reconnect=False):
                    events.append(event)
                    if len(events) == total:
                        break
            return events
        self.check_replay(asyncio.run(asyncio.wait_for(run(), 30)), FOUR_FINGERS)


class RequestTests(DaemonTestCase):
    def test_typed_requests_and_errors(self):
        d = self.daemon(f"{FOUR_FINGERS}.evemu", "--speed", "0", "--no-loop")
        with Client.connect(d.socket_path, timeout=10) as client:
            self.assertEqual(client.hello.protocol, 1)
            self.assertIn("resume", client.hello.features)
            devices = client.devices()
            self.assertIsInstance(devices, DevicesReply)
            self.assertEqual([(x.device, x.kind, x.path.startswith("replay:")) for x in devices.devices],
                             [(1, "touchscreen", True)])
            stats = client.stats()
            self.assertIsInstance(stats, StatsReply)
            self.assertEqual(stats.daemon["devices"], 1)
            client.ping()
            # The recording has been served: its ended strokes are history, page by page.
            ended = {m["stroke"] for m in stroke_events_of(f"{FOUR_FINGERS}.jsonl") if m["type"] == "ended"}
            deadline = time.monotonic() + 10
            while {s.stroke for s in client.history_all()} != ended and time.monotonic() < deadline:
                time.sleep(0.05)
            self.assertEqual({s.stroke for s in client.history_all()}, ended)
            live = client.live()
            self.assertEqual({s.stroke for s in live.strokes},
                             set(golden(f"{FOUR_FINGERS}.jsonl")[-1]["stillActive"]))
            with self.assertRaises(DaemonError) as caught:
                client.request("frobnicate")
            self.assertEqual(caught.exception.code, "unknownRequest")
            with self.assertRaises(DaemonError) as caught:
                client.history(limit=-1)
            self.assertEqual(caught.exception.code, "badArgument")
            client.ping()  # the connection survives errors


class ResumeTests(DaemonTestCase):
    """Through a proxy that drops the connection on both sides, as a network namespace or a
    slow-client disconnect would."""

    def proxied(self, d: Daemon) -> Proxy:
        proxy = Proxy(d.socket_path, os.path.join(d.directory, "proxy.sock"))
        self.addCleanup(proxy.close)
        return proxy

    def reference(self, d: Daemon, until_seq: Dict[str, int]) -> Dict[int, dict]:
        """A direct client's stream (by seq), read on a thread until seq `until_seq["seq"]`."""
        seen: Dict[int, dict] = {}
        ready = threading.Event()

        def read():
            with Client.connect(d.socket_path, timeout=20) as client:
                for event in client.subscribe(reconnect=False):
                    ready.set()
                    if isinstance(event, STREAM_TYPES):
                        seen[event.seq] = event.raw
                        if event.seq >= until_seq["seq"]:
                            return
        thread = threading.Thread(target=read, daemon=True)
        thread.start()
        self.assertTrue(ready.wait(10))
        self.addCleanup(thread.join, 30)
        self._reference_thread = thread
        return seen

    def test_dropped_connection_resumes_without_loss_or_duplicates(self):
        d = self.daemon(TEN_FINGERS, "--speed", "4", "--loop")
        proxy = self.proxied(d)
        target = {"seq": 1 << 62}
        reference = self.reference(d, target)
        events = []
        cut_at = None
        with Client.connect(proxy.path, timeout=20) as client:
            for event in client.subscribe(backoff=QUICK):
                events.append(event)
                if cut_at is None and len(events) == 300:
                    cut_at = event.seq
                    proxy.hold.set()
                    proxy.cut()
                    time.sleep(0.3)  # the daemon goes on: the client must resume what it missed
                    proxy.hold.clear()
                if cut_at is not None and len(events) == 900:
                    break
        target["seq"] = events[-1].seq
        self._reference_thread.join(30)
        self.assertIsNotNone(cut_at)
        self.assertFalse(any(isinstance(e, Gap) for e in events))
        self.assertIsInstance(events[0], Snapshot)
        numbered = seqs(events)
        self.assertEqual(numbered, list(range(events[0].seq + 1, events[-1].seq + 1)))
        self.assertGreater(numbered[-1] - cut_at, 300)
        for event in events[1:]:
            self.assertEqual(event.raw, reference[event.seq])

    def test_resume_point_too_old_is_reported_and_followed_by_a_snapshot(self):
        d = self.daemon(TEN_FINGERS, "--speed", "4", "--loop", config="resume: 16\n")
        proxy = self.proxied(d)
        events = []
        with Client.connect(proxy.path, timeout=20) as client:
            for event in client.subscribe(backoff=QUICK):
                events.append(event)
                if len(events) == 50:
                    proxy.hold.set()
                    proxy.cut()
                    time.sleep(1.0)  # far more than 16 messages at 4x
                    proxy.hold.clear()
                if any(isinstance(e, Gap) for e in events) and len(events) > 150:
                    break
        at = next(i for i, e in enumerate(events) if isinstance(e, Gap))
        gap, snapshot = events[at], events[at + 1]
        before, after = seqs(events[:at]), seqs(events[at + 2:])
        self.assertEqual((gap.reason, gap.last_seq, gap.instance), ("gapTooOld", before[-1], client.hello.instance))
        self.assertIsInstance(snapshot, Snapshot)
        self.assertGreater(snapshot.seq, gap.last_seq + 16)
        self.assertEqual(before, list(range(events[0].seq + 1, before[-1] + 1)))
        self.assertEqual(after, list(range(snapshot.seq + 1, after[-1] + 1)))

    def test_a_restarted_daemon_is_reported_and_followed_by_a_snapshot(self):
        first = self.daemon(TEN_FINGERS, "--speed", "4", "--loop")
        events = []
        second = None
        with Client.connect(first.socket_path, timeout=20) as client:
            old_instance = client.hello.instance
            for event in client.subscribe(backoff=QUICK):
                events.append(event)
                if len(events) == 200:
                    self.assertEqual(first.stop(), 0)
                    second = self.daemon(TEN_FINGERS, "--speed", "4", "--loop", directory=first.directory,
                                         socket_path=first.socket_path)
                if second is not None and len(events) > 400 and any(isinstance(e, Gap) for e in events):
                    break
        at = next(i for i, e in enumerate(events) if isinstance(e, Gap))
        gap, snapshot = events[at], events[at + 1]
        self.assertIsInstance(events[at - 1], Goodbye)
        self.assertEqual(events[at - 1].reason, "shutdown")
        before, after = seqs(events[:at]), seqs(events[at + 2:])
        self.assertEqual((gap.reason, gap.last_seq, gap.instance), ("restarted", before[-1], old_instance))
        self.assertNotEqual(client.hello.instance, old_instance)
        self.assertIsInstance(snapshot, Snapshot)
        self.assertEqual(before, list(range(events[0].seq + 1, before[-1] + 1)))
        self.assertEqual(after, list(range(snapshot.seq + 1, after[-1] + 1)))
        # The first daemon ended every stroke it began before saying goodbye.
        open_strokes = {s.stroke for s in events[0].strokes}
        for e in events[:at]:
            if isinstance(e, Began):
                open_strokes.add(e.stroke)
            elif isinstance(e, (Ended, Cancelled)):
                open_strokes.discard(e.stroke)
        self.assertEqual(open_strokes, set())

    def test_asyncio_client_resumes_a_dropped_connection(self):
        d = self.daemon(TEN_FINGERS, "--speed", "4", "--loop")
        proxy = self.proxied(d)

        async def run():
            events = []
            async with await AsyncClient.connect(proxy.path) as client:
                async for event in client.subscribe(backoff=QUICK):
                    events.append(event)
                    if len(events) == 200:
                        proxy.hold.set()
                        proxy.cut()
                        await asyncio.sleep(0.3)
                        proxy.hold.clear()
                    if len(events) == 600:
                        break
            return events
        events = asyncio.run(asyncio.wait_for(run(), 60))
        self.assertFalse(any(isinstance(e, Gap) for e in events))
        self.assertEqual(seqs(events), list(range(events[0].seq + 1, events[-1].seq + 1)))
        self.assertTrue(any(isinstance(e, Moved) for e in events))


if __name__ == "__main__":
    unittest.main()
