"""The resume bookkeeping, without a daemon."""

import unittest

from strokes_client import Backoff, Gap, Hello, ProtocolError, Snapshot, StreamState, SubscribeReply, parse_message
from strokes_client.stream import ShortSessions


def hello(instance, seq=0):
    return Hello(protocol=1, daemon="strokes test", instance=instance, seq=seq, features=(), max_line_length=65536)


def moved(seq, merged=None):
    obj = {"type": "moved", "seq": seq, "stroke": 1, "device": 1, "frame": seq, "slot": 0, "trackingId": 5,
           "time": 1, "x": 1, "y": 1, "nx": 0, "ny": 0}
    if merged is not None:
        obj["merged"] = merged
    return parse_message(obj)


def reply(**keys):
    return SubscribeReply(id=1, request="subscribe", **keys)


class StreamStateTests(unittest.TestCase):
    def test_a_second_subscribe_resumes_after_the_last_delivered(self):
        state = StreamState(events=["began", "moved"])
        self.assertEqual(state.subscribe_keys(hello("a")), ({"events": ["began", "moved"]}, None))
        state.on_message(Snapshot(seq=10, strokes=()))
        state.on_message(moved(11))
        keys, gap = state.subscribe_keys(hello("a", 40))
        self.assertEqual((keys["resumeAfter"], gap), (11, None))
        self.assertIsNone(state.on_reply(reply(seq=40, resumed=True)))

    def test_a_sequence_number_that_goes_back_is_a_protocol_error(self):
        """Finding 109: seq numbers only increase (a resume starts after the last delivered, a
        merged moved carries the newest): one that does not was dropped silently."""
        state = StreamState(resume_after=5)
        with self.assertRaisesRegex(ProtocolError, "seq 5 after seq 5"):
            state.on_message(moved(5))
        self.assertEqual(len(state.on_message(moved(6))), 1)
        self.assertEqual(len(state.on_message(moved(8))), 1)
        with self.assertRaisesRegex(ProtocolError, "seq 7 after seq 8"):
            state.on_message(moved(7))
        self.assertEqual(state.last_seq, 8)

    def test_a_resume_refused_with_slow_client_becomes_a_gap_and_a_snapshot(self):
        """Finding 110: the next subscribe must not send the same resumeAfter again."""
        state = StreamState()
        state.subscribe_keys(hello("a"))
        state.on_message(Snapshot(seq=3, strokes=()))
        state.on_message(moved(4))
        keys, gap = state.subscribe_keys(hello("a", 9000))
        self.assertEqual((keys["resumeAfter"], gap), (4, None))
        state.resume_refused("slowClient")
        keys, gap = state.subscribe_keys(hello("a", 9001))
        self.assertNotIn("resumeAfter", keys)
        self.assertEqual(gap, Gap(reason="slowClient", last_seq=4, instance="a"))
        state.on_message(Snapshot(seq=9001, strokes=()))
        self.assertEqual(state.subscribe_keys(hello("a", 9001)), ({"resumeAfter": 9001}, None))

    def test_merged_moves_account_for_the_numbers_they_skip(self):
        state = StreamState()
        state.on_message(Snapshot(seq=0, strokes=()))
        state.on_message(moved(1))
        state.on_message(moved(4, merged=2))
        self.assertEqual(state.unaccounted, 0)
        state.on_message(moved(6))
        self.assertEqual(state.unaccounted, 1)

    def test_gap_too_old_and_restart(self):
        state = StreamState()
        state.subscribe_keys(hello("a"))
        state.on_message(Snapshot(seq=3, strokes=()))
        state.on_message(moved(4))
        state.subscribe_keys(hello("a", 9000))
        self.assertEqual(state.on_reply(reply(seq=9000, resumed=False, reason="gapTooOld")),
                         Gap(reason="gapTooOld", last_seq=4, instance="a"))
        state.on_message(Snapshot(seq=9000, strokes=()))
        keys, gap = state.subscribe_keys(hello("b", 2))
        self.assertEqual(gap, Gap(reason="restarted", last_seq=9000, instance="a"))
        self.assertNotIn("resumeAfter", keys)
        state.on_message(Snapshot(seq=2, strokes=()))
        self.assertEqual(len(state.on_message(moved(3))), 1)

    def test_backoff(self):
        self.assertEqual([Backoff(initial=0.1, maximum=0.5).delay(n) for n in range(1, 6)], [0.1, 0.2, 0.4, 0.5, 0.5])


if __name__ == "__main__":
    unittest.main()


class ShortSessionsTests(unittest.TestCase):
    def test_losses_soon_after_subscribing_wait_longer_each_time_and_a_long_session_starts_over(self):
        short = ShortSessions(Backoff(initial=0.05, factor=2.0, maximum=2.0))
        self.assertEqual(short.lost(0.0), 0.0)  # never subscribed: the reconnection's own backoff applies
        waits = []
        for t in range(4):
            short.subscribed(10.0 * t)
            waits.append(short.lost(10.0 * t + 0.5))
        self.assertEqual(waits, [0.05, 0.1, 0.2, 0.4])
        short.subscribed(100.0)
        self.assertEqual(short.lost(102.0), 0.0)  # lasted backoff.maximum: not short
        short.subscribed(110.0)
        self.assertEqual(short.lost(110.1), 0.05)
