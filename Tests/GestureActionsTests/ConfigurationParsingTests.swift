import Foundation
import GestureActions
import StrokeProtocol
import Testing

@Suite struct ConfigurationParsingTests {
    func parse(_ text: String) throws(GestureActionConfigurationError) -> GestureActionConfiguration {
        try GestureActionConfiguration.parse(text, file: "g.yaml")
    }

    /// The error `text` gives, as printed.
    func error(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aFullConfigurationReadsIntoTheModel() throws {
        let config = try parse(
            """
            maxPerSecond: 4
            maxRunning: 3
            rules:
              - name: next workspace
                kind: swipe
                fingers: [3, 4]
                direction: left
                minDistance: 20
                minVelocity: 50.5
                every: 500ms
                run: [wtype, -M, logo, -k, Right]
              - kind: hold
                device: [3, "3", "Wacom*"]
                maxDuration: 2s
                maxPerSecond: 2
                shell: 'echo "$STROKES_GESTURE_KIND" >> /tmp/x'
              - kind: pinch
                phase: update
                minScale: 0.5
                maxScale: 0.9
                run: [true]
              - kind: edgeSwipe
                edge: [left, right]
                direction: right
                run: [launcher]
              - kind: rotate
                minAngle: -90
                maxAngle: -30.5
                minDuration: 250 ms
                run: ["x"]
            """)
        #expect(config.limit == .perSecond(4))
        #expect(config.maxRunning == 3)
        #expect(config.rules.count == 5)

        let swipe = config.rules[0]
        #expect(swipe.name == "next workspace")
        #expect(swipe.line == 4)
        var match = GestureMatch(kind: .swipe)
        match.fingers = [3, 4]
        match.directions = [.left]
        match.minDistance = 20
        match.minVelocity = 50.5
        #expect(swipe.match == match)
        #expect(swipe.match.phase == .end)
        #expect(swipe.action == .run(["wtype", "-M", "logo", "-k", "Right"]))
        #expect(swipe.limit == .every(microseconds: 500_000))

        let hold = config.rules[1]
        #expect(hold.name == "rule 2")
        #expect(hold.match.phase == .begin)
        #expect(hold.match.devices == [.id(3), .name("3"), .name("Wacom*")])
        #expect(hold.match.maxDuration == 2_000_000)
        #expect(hold.limit == .perSecond(2))
        #expect(hold.action.argv == ["/bin/sh", "-c", #"echo "$STROKES_GESTURE_KIND" >> /tmp/x"#])

        #expect(config.rules[2].match.phase == .update)
        #expect(config.rules[2].match.minScale == 0.5)
        #expect(config.rules[2].match.maxScale == 0.9)
        #expect(config.rules[2].limit == nil)
        #expect(config.rules[3].match.edges == [.left, .right])
        #expect(config.rules[3].match.directions == [.right])
        #expect(config.rules[4].match.minAngle == -90)
        #expect(config.rules[4].match.maxAngle == -30.5)
        #expect(config.rules[4].match.minDuration == 250_000)
    }

    @Test func defaults() throws {
        let empty = try parse("")
        #expect(empty.rules.isEmpty)
        #expect(empty.limit == .perSecond(10))
        #expect(empty.maxRunning == 16)
        let every = try parse("every: 0ms\nrules: []\n")
        #expect(every.limit == .every(microseconds: 0))
        for kind in GestureMatch.Kind.allCases {
            #expect(GestureMatch(kind: kind).phase == (kind == .hold ? .begin : .end))
        }
    }

    @Test func theShippedExampleIsValid() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/gestures.yaml").path
        let config = try GestureActionConfiguration.parse(try String(contentsOfFile: path, encoding: .utf8), file: path)
        #expect(config.rules.count >= 4)
        #expect(config.rules.contains { $0.match.kind == .swipe && $0.match.fingers == [3] && $0.match.directions == [.left] })
        #expect(config.rules.contains { $0.match.kind == .hold })
        #expect(config.rules.contains { $0.match.kind == .edgeSwipe })
    }

    @Test(arguments: [
        ("rules: [kind: swipe\n", "g.yaml:2: invalid YAML"),
        ("- a\n- b\n", "g.yaml:1: the configuration must be a mapping (key: value)"),
        ("rules: []\nrule: []\n", "g.yaml:2: unknown key 'rule' (top level: rules, every, maxPerSecond, maxRunning)"),
        ("rules: []\nrules: []\n", "g.yaml:2: invalid YAML: duplicate key 'rules' (first on line 1)"),
        ("rules:\n  kind: tap\n", "g.yaml:2: 'rules' must be a list"),
        ("rules:\n  - tap\n", "g.yaml:2: a rule must be a mapping (key: value)"),
        ("rules:\n  - run: [x]\n", "g.yaml:2: rule 1 needs 'kind' (tap, doubleTap, hold, swipe, edgeSwipe, pinch, rotate)"),
        ("rules:\n  - run: [x]\n    kind: press\n", "g.yaml:3: unknown kind 'press' (one of tap, doubleTap, hold, swipe, edgeSwipe, pinch, rotate)"),
        ("rules:\n  - kind: tap\n    phase: middle\n    run: [x]\n", "g.yaml:3: unknown phase 'middle' (one of begin, update, end, cancel)"),
        ("rules:\n  - kind: tap\n    phase: begin\n    run: [x]\n", "g.yaml:3: 'tap' is one message, with phase end"),
        ("rules:\n  - kind: hold\n    phase: update\n    run: [x]\n", "g.yaml:3: 'hold' has no update phase (begin, end, cancel)"),
        ("rules:\n  - kind: tap\n    fingers: 0\n    run: [x]\n", "g.yaml:3: 'fingers' must be an integer from 1 to 20"),
        ("rules:\n  - kind: tap\n    fingers: [2, three]\n    run: [x]\n", "g.yaml:3: 'fingers' must be an integer from 1 to 20"),
        ("rules:\n  - kind: tap\n    fingers: []\n    run: [x]\n", "g.yaml:3: 'fingers' must not be an empty list"),
        // A quoted number is a string, as for the daemon's configuration (`history: "300"`).
        ("rules:\n  - kind: tap\n    fingers: \"3\"\n    run: [x]\n", "g.yaml:3: 'fingers' must be an integer from 1 to 20"),
        ("rules:\n  - kind: swipe\n    minDistance: \"3\"\n    run: [x]\n", "g.yaml:3: 'minDistance' must be a number"),
        ("maxRunning: '2'\n", "g.yaml:1: 'maxRunning' must be an integer from 1 to 1024"),
        ("rules:\n  - kind: swipe\n    direction: west\n    run: [x]\n", "g.yaml:3: unknown direction 'west' (one of up, down, left, right, upLeft, upRight, downLeft, downRight)"),
        ("rules:\n  - kind: pinch\n    direction: up\n    run: [x]\n", "g.yaml:3: 'direction' applies to swipe and edgeSwipe, not pinch"),
        ("rules:\n  - kind: swipe\n    edge: left\n    run: [x]\n", "g.yaml:3: 'edge' applies to edgeSwipe, not swipe"),
        ("rules:\n  - kind: edgeSwipe\n    edge: middle\n    run: [x]\n", "g.yaml:3: unknown edge 'middle' (one of top, bottom, left, right)"),
        ("rules:\n  - kind: rotate\n    minScale: 2\n    run: [x]\n", "g.yaml:3: 'minScale' applies to pinch, not rotate"),
        ("rules:\n  - kind: pinch\n    minAngle: 2\n    run: [x]\n", "g.yaml:3: 'minAngle' applies to rotate, not pinch"),
        ("rules:\n  - kind: pinch\n    minScale: big\n    run: [x]\n", "g.yaml:3: 'minScale' must be a number"),
        ("rules:\n  - kind: swipe\n    minDistance: [1]\n    run: [x]\n", "g.yaml:3: 'minDistance' must be a single value, not a list or mapping"),
        ("rules:\n  - kind: hold\n    minDuration: 500\n    run: [x]\n", "g.yaml:3: 'minDuration' must be a duration with its unit, such as 500ms or 1.5s"),
        ("rules:\n  - kind: tap\n    every: soon\n    run: [x]\n", "g.yaml:3: 'every' must be a duration with its unit, such as 500ms or 1.5s"),
        ("rules:\n  - kind: tap\n    maxPerSecond: 0\n    run: [x]\n", "g.yaml:3: 'maxPerSecond' must be an integer from 1 to 1000"),
        ("rules:\n  - kind: tap\n    every: 1s\n    maxPerSecond: 2\n    run: [x]\n", "g.yaml:4: give 'every' or 'maxPerSecond', not both"),
        ("every: 1s\nmaxPerSecond: 2\n", "g.yaml:2: give 'every' or 'maxPerSecond', not both"),
        ("rules:\n  - kind: tap\n    run: [\"safe\\0; rm -rf x\"]\n", "g.yaml:3: 'run' arguments cannot hold a NUL character"),
        ("rules:\n  - kind: tap\n    shell: \"a\\0b\"\n", "g.yaml:3: 'shell' cannot hold a NUL character"),
        ("maxRunning: 0\n", "g.yaml:1: 'maxRunning' must be an integer from 1 to 1024"),
        ("rules:\n  - kind: tap\n    run: xdotool click 3\n", "g.yaml:3: 'run' must be a list of arguments, such as [wtype, -k, Left] (for a shell command line, use 'shell')"),
        ("rules:\n  - kind: tap\n    run: []\n", "g.yaml:3: 'run' needs a program to run first"),
        ("rules:\n  - kind: tap\n    run: [[a]]\n", "g.yaml:3: 'run' must be a single value, not a list or mapping"),
        ("rules:\n  - kind: tap\n    shell: ''\n", "g.yaml:3: 'shell' must not be empty"),
        ("rules:\n  - kind: tap\n    run: [x]\n    shell: x\n", "g.yaml:4: give 'run' or 'shell', not both"),
        ("rules:\n  - kind: tap\n    name: quiet\n", "g.yaml:2: quiet needs 'run' (a program and its arguments) or 'shell' (a command line for /bin/sh -c)"),
        ("rules:\n  - kind: tap\n    command: [x]\n", "g.yaml:3: unknown key 'command' in a rule (config/gestures.yaml lists every key)"),
        ("rules:\n  - kind: tap\n    kind: hold\n    run: [x]\n", "g.yaml:3: invalid YAML: duplicate key 'kind' (first on line 2)"),
        ("rules:\n  - kind: tap\n    device: ''\n    run: [x]\n", "g.yaml:3: 'device' must be a device id or name"),
        ("rules:\n  - kind: tap\n    name: ''\n    run: [x]\n", "g.yaml:3: 'name' must not be empty"),
    ])
    func everyErrorNamesFileAndLine(_ text: String, _ expected: String) {
        let message = error(text)
        #expect(message?.hasPrefix(expected) == true, "\(message ?? "no error")")
    }

    @Test func aMissingFileIsNotAParseError() throws {
        #expect(GestureActionConfigurationError(file: "f", line: nil, message: "m").description == "f: m")
        #expect(GestureActionConfigurationError(file: "f", line: 3, message: "m").description == "f:3: m")
    }

    @Test func theDefaultPathFollowsXDG() {
        #expect(GestureActionConfiguration.defaultPath(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/strokes/gestures.yaml")
        #expect(GestureActionConfiguration.defaultPath(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]) == "/h/.config/strokes/gestures.yaml")
        #expect(GestureActionConfiguration.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/strokes/gestures.yaml")
        #expect(GestureActionConfiguration.defaultPath(environment: [:]) == nil)
    }

    @Test func durations() {
        #expect(GestureRateLimit.microseconds(text: "500ms") == 500_000)
        #expect(GestureRateLimit.microseconds(text: "1.5s") == 1_500_000)
        #expect(GestureRateLimit.microseconds(text: "0s") == 0)
        #expect(GestureRateLimit.microseconds(text: "500") == nil)
        #expect(GestureRateLimit.microseconds(text: "-1s") == nil)
        #expect(GestureRateLimit.microseconds(text: "ms") == nil)
    }
}

extension GestureMatch.Kind {
    static var allCases: [Self] { [.tap, .doubleTap, .hold, .swipe, .edgeSwipe, .pinch, .rotate] }
}
