import Foundation
import GestureRecognizer
import InputCore
import StrokeDaemon
import Testing

/// `gestures:` in the daemon's YAML (config/strokes.yaml, docs/gestures.md "Thresholds").
@Suite struct GestureConfigurationTests {
    static func device(_ name: String, vendor: UInt16 = 0x056a, product: UInt16 = 0x0059) -> DeviceDescription {
        DeviceDescription(name: name, id: InputID(bustype: 3, vendor: vendor, product: product, version: 1))
    }

    @Test func theShippedFileHoldsTheDefaults() throws {
        let c = try DaemonConfiguration.load(path: ConfigurationTests.shipped)
        #expect(c.gestures == GestureConfiguration() && c.gestureOverrides.isEmpty)
    }

    @Test func everyKeyIsReadAndOverridesApplyOnTopPerDevice() throws {
        let c = try DaemonConfiguration.parse(
            """
            gestures:
              devices:
                - {match: "id:056a:0059", holdTimeout: 500, touchSlopNormalized: 0.02}
                - {match: "name:*Pad*", enabled: false}
              enabled: true
              touchSlop: 2
              holdTimeout: 450
              doubleTapTimeout: 250
              doubleTapMinTime: 30
              doubleTapSlop: 12
              settleTime: 80
              swipeDistance: 3
              swipeMinimumVelocity: 10
              velocityWindow: 50
              directions: 8
              spanSlop: 4
              minimumSpan: 20
              rotateAngle: 20
              edgeMargin: 6
              edgeMarginNormalized: 0.05
              maxFingers: 4
            """, file: "t.yaml")
        var expected = GestureConfiguration()
        expected.touchSlop.mm = 2
        expected.holdTimeout = 450_000
        expected.doubleTapTimeout = 250_000
        expected.doubleTapMinTime = 30_000
        expected.doubleTapSlop.mm = 12
        expected.settleTime = 80_000
        expected.swipeDistance.mm = 3
        expected.swipeMinimumVelocity.mm = 10
        expected.velocityWindow = 50_000
        expected.directions = 8
        expected.spanSlop.mm = 4
        expected.minimumSpan.mm = 20
        expected.rotateAngle = 20
        expected.edgeMargin = .init(mm: 6, normalized: 0.05)
        expected.maxFingers = 4
        #expect(c.gestures == expected)
        // An override starts from the global values, wherever `devices` stands in the mapping.
        var wacom = expected
        wacom.holdTimeout = 500_000
        wacom.touchSlop.normalized = 0.02
        #expect(c.gestureConfiguration(path: "/dev/input/event3", description: Self.device("Wacom")) == wacom)
        var pad = expected
        pad.enabled = false
        #expect(c.gestureConfiguration(path: "/dev/input/event4", description: Self.device("TouchPad", vendor: 2)) == pad)
        #expect(c.gestureConfiguration(path: "/dev/input/event5", description: Self.device("Screen", vendor: 2)) == expected)
    }

    @Test(arguments: [
        ("gestures:\n  tapSlop: 2\n", "t.yaml:2: unknown key 'gestures.tapSlop'"),
        ("gestures:\n  directions: 6\n", "t.yaml:2: gestures: directions must be 4 or 8"),
        ("gestures:\n  touchSlop: -1\n", "t.yaml:2: gestures: touchSlop must be"),
        ("gestures:\n  holdTimeout: soon\n", "t.yaml:2: 'gestures.holdTimeout' must be a finite number"),
        ("gestures:\n  devices:\n    - {holdTimeout: 3}\n", "t.yaml:3: a 'gestures.devices' entry needs 'match'"),
        ("gestures:\n  devices:\n    - {match: \"name:a\", rotateAngle: 200}\n", "t.yaml:3: gestures: rotateAngle must be"),
        ("gestures:\n  devices:\n    - {match: \"name:a\", swipe: 1}\n", "t.yaml:3: unknown key 'gestures.devices.swipe'"),
    ])
    func invalidGestureKeysNameFileLineAndKey(_ text: String, _ prefix: String) {
        do {
            _ = try DaemonConfiguration.parse(text, file: "t.yaml")
            Issue.record("accepted: \(text)")
        } catch {
            #expect("\(error)".hasPrefix(prefix), "\(error)")
        }
    }

    @Test func gesturesAreARestartKey() throws {
        let old = DaemonConfiguration()
        let new = try DaemonConfiguration.parse("gestures: {holdTimeout: 600}\n", file: "t.yaml")
        #expect(DaemonConfiguration.restartKeysChanged(from: old, to: new) == ["gestures"])
    }
}
