"""The typed messages against every golden transcript and the compatibility rules (no daemon)."""

import json
import unittest

from strokes_client import (Began, Cancelled, DeviceAdded, Hover, Moved, ProtocolError, ReplayEnded,
                            SubscribeReply, Unknown, parse_line, parse_message)

from harness import GOLDEN


class GoldenRoundTripTests(unittest.TestCase):
    def test_every_golden_line_decodes_with_no_key_lost(self):
        """to_wire() gives back only the keys the types know: a key the writer gains and the types
        do not know fails here."""
        files = sorted(GOLDEN.glob("*.jsonl"))
        self.assertGreaterEqual(len(files), 8)
        kinds = set()
        for path in files:
            for number, line in enumerate(path.read_text().splitlines(), 1):
                with self.subTest(file=path.name, line=number):
                    message = parse_line(line)
                    self.assertNotIsInstance(message, Unknown)
                    self.assertEqual(message.to_wire(), json.loads(line))
                    kinds.add(type(message).__name__)
        self.assertTrue({"Began", "Moved", "Ended", "Hover", "ReplayEnded"} <= kinds, kinds)

    def test_pen_axes_are_typed(self):
        began = next(m for m in map(parse_line, (GOLDEN / "18-wacom-dth2242-pen-buttons.jsonl").read_text().splitlines())
                     if isinstance(m, Began))
        self.assertEqual(began.point.tool_type, "pen")
        self.assertIsInstance(began.point.buttons, tuple)
        self.assertIsInstance(began.point.normalized_pressure, float)


class CompatibilityTests(unittest.TestCase):
    MOVED = {"type": "moved", "seq": 9, "merged": 3, "stroke": 1, "device": 1, "frame": 2, "slot": 0,
             "trackingId": None, "time": 5, "x": 1, "y": 2, "nx": 0.5, "ny": 0.25}

    def test_unknown_keys_are_ignored(self):
        message = parse_message(dict(self.MOVED, futureKey={"a": 1}, anotherOne=[1]))
        self.assertIsInstance(message, Moved)
        self.assertEqual((message.seq, message.merged, message.tracking_id, message.point.ny), (9, 3, None, 0.25))
        self.assertEqual(message.to_wire(), self.MOVED)
        self.assertIn("futureKey", message.raw)

    def test_unknown_types_flags_and_reasons_are_kept(self):
        message = parse_line('{"type":"somethingNew","seq":3,"x":1}')
        self.assertIsInstance(message, Unknown)
        self.assertEqual((message.type, message.raw["x"]), ("somethingNew", 1))
        cancelled = parse_message(dict(self.MOVED, type="cancelled", reason="solarFlare"))
        self.assertIsInstance(cancelled, Cancelled)
        self.assertEqual(cancelled.reason, "solarFlare")
        began = parse_message(dict(self.MOVED, type="began", flags=["adopted", "newFlag"]))
        self.assertEqual(began.flags, ("adopted", "newFlag"))

    def test_replies_are_typed_by_request(self):
        reply = parse_line('{"type":"reply","id":4,"request":"subscribe","seq":12,"resumed":false,"reason":"gapTooOld"}')
        self.assertIsInstance(reply, SubscribeReply)
        self.assertEqual((reply.id, reply.seq, reply.resumed, reply.reason), (4, 12, False, "gapTooOld"))

    def test_a_stroke_object_says_which_points_it_left_out(self):
        line = ('{"type":"snapshot","seq":7,"strokes":[{"stroke":3,"device":1,"slot":0,"trackingId":33,'
                '"state":"inProgress","pointsOmitted":5995,"points":[{"time":1,"x":1,"y":2,"nx":0.5,"ny":0.25}]},'
                '{"stroke":4,"device":1,"slot":1,"trackingId":34,"state":"inProgress","points":[]}]}')
        message = parse_line(line)
        self.assertEqual([s.points_omitted for s in message.strokes], [5995, None])
        self.assertEqual(message.to_wire(), json.loads(line))

    def test_device_added_carries_a_device(self):
        line = ('{"type":"deviceAdded","seq":1,"device":1,"name":"n","path":"replay:f","kind":"touchscreen","slots":10,'
                '"bustype":3,"vendor":1386,"product":1,"x":{"min":0,"max":100,"resolution":4},'
                '"y":{"min":0,"max":50,"resolution":0},"axes":["pressure"],"semiMT":false}')
        message = parse_line(line)
        self.assertIsInstance(message, DeviceAdded)
        self.assertEqual((message.seq, message.device.device, message.device.x.max, message.device.semi_mt), (1, 1, 100, False))
        self.assertEqual(message.to_wire(), json.loads(line))

    def test_bad_lines_are_clear_errors(self):
        cases = {
            "garbage": "not a JSON line",
            "[1,2]": "not a JSON object",
            '{"seq":1}': "no 'type'",
            '{"type":"began","seq":1}': "'began' has no 'stroke'",
            json.dumps(dict(self.MOVED, stroke="one")): "'moved' key 'stroke' is not an integer: \"one\"",
            json.dumps(dict(self.MOVED, x=True)): "key 'x' is not an integer",
            '{"type":"hover","phase":"motion","device":1,"frame":1,"slot":0,"trackingId":null,"time":1,"x":1,"y":1,"nx":0,"ny":"0"}':
                "'hover' key 'ny' is not a number",
            '{"type":"reply","id":1,"request":"devices","devices":[{"device":1}]}': "has no 'name'",
        }
        for line, expected in cases.items():
            with self.subTest(line=line):
                with self.assertRaises(ProtocolError) as caught:
                    parse_line(line)
                self.assertIn(expected, str(caught.exception))

    def test_hover_and_replay_ended(self):
        hover = parse_line('{"type":"hover","phase":"proximityIn","device":2,"frame":1,"slot":0,"trackingId":null,'
                           '"time":1,"x":3,"y":4,"nx":0.1,"ny":0.2,"distance":31}')
        self.assertIsInstance(hover, Hover)
        self.assertEqual((hover.phase, hover.point.distance), ("proximityIn", 31))
        end = parse_line('{"type":"replayEnded","frames":46,"stillActive":[3]}')
        self.assertIsInstance(end, ReplayEnded)
        self.assertEqual(end.still_active, (3,))


if __name__ == "__main__":
    unittest.main()
