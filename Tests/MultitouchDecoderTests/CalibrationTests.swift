import InputCore
import MultitouchDecoder
import StrokeTracker
import Testing

@Suite struct CalibrationTests {
    func point(_ x: Int32, _ y: Int32, _ c: Calibration) -> (Double, Double) {
        var g = DeviceGeometry(description: TestDevices.touchscreen())  // x 0...1000, y 0...500
        g.calibration = c
        var sample = ContactSample()
        sample.x = x
        sample.y = y
        let p = StrokePoint(time: .zero, sample: sample, geometry: g)
        return (p.nx, p.ny)
    }

    @Test func identityLeavesNormalisedCoordinates() {
        #expect(point(250, 100, .identity) == (0.25, 0.2))
    }

    /// libinput's documented rotation matrices: the top-left corner goes to the top-right at 90°.
    @Test func rotationsMoveTheTopLeftCornerClockwise() {
        #expect(point(0, 0, .rotation(degrees: 90)!) == (1, 0))
        #expect(point(0, 0, .rotation(degrees: 180)!) == (1, 1))
        #expect(point(0, 0, .rotation(degrees: 270)!) == (0, 1))
        #expect(Calibration.rotation(degrees: 45) == nil)
    }

    @Test func swapAndInvertCompose() {
        #expect(point(250, 100, .swapXY) == (0.2, 0.25))
        #expect(point(250, 100, .invertX) == (0.75, 0.2))
        #expect(point(250, 100, Calibration.invertY.after(.invertX)) == (0.75, 0.8))
        #expect(Calibration.rotation(degrees: 90)!.after(.rotation(degrees: 270)!) == .identity)
    }

    @Test func rawAndMillimetresAreNotCalibrated() {
        var g = DeviceGeometry(description: TestDevices.touchscreen())
        g.calibration = .invertX
        var sample = ContactSample()
        sample.x = 250
        let p = StrokePoint(time: .zero, sample: sample, geometry: g)
        #expect(p.x == 250 && p.mmX == 25)
    }
}
