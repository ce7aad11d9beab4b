import GestureActions
import StrokeProtocol
import Testing

@Suite struct CommandTests {
    @Test func theEnvironmentHoldsTheGesturesValues() {
        var g = gesture(.swipe, fingers: 4, device: 2, direction: .down, dmm: (0.5, 61.25), velocity: 212.125)
        g.mmX = 10
        g.mmY = 20.5
        g.dnx = 0
        g.dny = 0.375
        let rule = GestureRule(name: "down", match: GestureMatch(kind: .swipe), action: .run(["wtype", "-k", "Down"]))
        let c = PlannedCommand(rule: rule, gesture: g, deviceName: "Atmel maXTouch")
        #expect(c.argv == ["wtype", "-k", "Down"])
        #expect(c.environment.map { "\($0.name)=\($0.value)" } == [
            "STROKES_GESTURE_RULE=down", "STROKES_GESTURE_KIND=swipe", "STROKES_GESTURE_PHASE=end", "STROKES_GESTURE_ID=7",
            "STROKES_GESTURE_FINGERS=4", "STROKES_GESTURE_STROKES=3 4", "STROKES_GESTURE_DEVICE=2",
            "STROKES_GESTURE_DEVICE_NAME=Atmel maXTouch", "STROKES_GESTURE_TIME=1000000", "STROKES_GESTURE_DURATION=100000",
            "STROKES_GESTURE_X=100", "STROKES_GESTURE_Y=200", "STROKES_GESTURE_NX=0.25", "STROKES_GESTURE_NY=0.5",
            "STROKES_GESTURE_MM_X=10", "STROKES_GESTURE_MM_Y=20.5", "STROKES_GESTURE_DNX=0", "STROKES_GESTURE_DNY=0.375",
            "STROKES_GESTURE_DMM_X=0.5", "STROKES_GESTURE_DMM_Y=61.25", "STROKES_GESTURE_DIRECTION=down",
            "STROKES_GESTURE_VELOCITY=212.125",
        ])
        let pinch = PlannedCommand(rule: rule, gesture: gesture(.pinch, scale: 0.000001, angle: -12.5), deviceName: nil)
        let names = pinch.environment.map(\.name)
        #expect(!names.contains("STROKES_GESTURE_DEVICE_NAME"))
        #expect(!names.contains("STROKES_GESTURE_DIRECTION"))
        #expect(pinch.environment.contains(.init("STROKES_GESTURE_SCALE", "0.000001")), "no exponent")
        #expect(pinch.environment.contains(.init("STROKES_GESTURE_ANGLE", "-12.5")))
    }

    /// Numbers are plain decimals however large (a hostile or broken server's 1e16 came out as
    /// `1e+16`); a value that is not finite is left out.
    @Test func largeNumbersHaveNoExponent() {
        var g = gesture(.swipe, scale: .infinity, angle: -1.23e29)
        g.x = 1e16
        g.y = 12_345_678_901.5
        let v = Dictionary(uniqueKeysWithValues: GestureEnvironment.variables(for: g, deviceName: nil, rule: "r"))
        #expect(v["STROKES_GESTURE_X"] == "10000000000000000")
        #expect(v["STROKES_GESTURE_Y"] == "12345678901.5")
        #expect(v["STROKES_GESTURE_ANGLE"] == "-123000000000000000000000000000")
        #expect(v["STROKES_GESTURE_SCALE"] == nil)
        #expect(v["STROKES_GESTURE_NX"] == "0.25")
    }

    @Test func inheritedGestureVariablesAreReplaced() {
        let rule = GestureRule(name: "t", match: GestureMatch(kind: .tap), action: .shell("echo $STROKES_GESTURE_KIND"))
        let c = PlannedCommand(rule: rule, gesture: gesture(.tap), deviceName: nil)
        #expect(c.argv == ["/bin/sh", "-c", "echo $STROKES_GESTURE_KIND"])
        let env = c.environment(inheriting: ["PATH=/bin", "STROKES_GESTURE_EDGE=left", "STROKES_GESTURE_KIND=hold"])
        #expect(env.first == "PATH=/bin")
        #expect(!env.contains("STROKES_GESTURE_EDGE=left"))
        #expect(env.filter { $0.hasPrefix("STROKES_GESTURE_KIND=") } == ["STROKES_GESTURE_KIND=tap"])
    }

    @Test func theDryRunLine() {
        let rule = GestureRule(name: "say \"hi\"", match: GestureMatch(kind: .tap), action: .run(["echo", "a\tb"]))
        var g = gesture(.tap)
        g.strokes = [9]
        let line = PlannedCommand(rule: rule, gesture: g, deviceName: nil).dryRunLine
        #expect(line == #"{"rule":"say \"hi\"","argv":["echo","a\tb"],"env":{"STROKES_GESTURE_RULE":"say \"hi\"","STROKES_GESTURE_KIND":"tap","STROKES_GESTURE_PHASE":"end","STROKES_GESTURE_ID":"7","STROKES_GESTURE_FINGERS":"1","STROKES_GESTURE_STROKES":"9","STROKES_GESTURE_DEVICE":"1","STROKES_GESTURE_TIME":"1000000","STROKES_GESTURE_DURATION":"100000","STROKES_GESTURE_X":"100","STROKES_GESTURE_Y":"200","STROKES_GESTURE_NX":"0.25","STROKES_GESTURE_NY":"0.5"}}"#)
    }
}
