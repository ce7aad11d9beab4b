/// A libinput-style calibration matrix applied to normalised coordinates:
/// `nx' = a·nx + b·ny + c`, `ny' = d·nx + e·ny + f` (libinput's `LIBINPUT_CALIBRATION_MATRIX`,
/// udev's `LIBINPUT_CALIBRATION_MATRIX` property). Raw and millimetre coordinates are the
/// sensor's and are never calibrated.
public struct Calibration: Hashable, Sendable {
    // Stored inline rather than as an array, so that a device's geometry is copied without
    // reference counting on the per-frame path.
    var a, b, c, d, e, f: Double

    /// Row-major `[a, b, c, d, e, f]`.
    public var matrix: [Double] {
        get { [a, b, c, d, e, f] }
        set { self = Calibration(matrix: newValue) }
    }

    public static let identity = Calibration(matrix: [1, 0, 0, 0, 1, 0])

    public init(matrix: [Double]) {
        precondition(matrix.count == 6, "a calibration matrix has 6 entries")
        (a, b, c, d, e, f) = (matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5])
    }

    /// Clockwise rotation by a multiple of 90 degrees, as libinput documents the matrices.
    public static func rotation(degrees: Int) -> Calibration? {
        switch ((degrees % 360) + 360) % 360 {
        case 0: return .identity
        case 90: return Calibration(matrix: [0, -1, 1, 1, 0, 0])
        case 180: return Calibration(matrix: [-1, 0, 1, 0, -1, 1])
        case 270: return Calibration(matrix: [0, 1, 0, -1, 0, 1])
        default: return nil
        }
    }

    public static let swapXY = Calibration(matrix: [0, 1, 0, 1, 0, 0])
    public static let invertX = Calibration(matrix: [-1, 0, 1, 0, 1, 0])
    public static let invertY = Calibration(matrix: [1, 0, 0, 0, -1, 1])

    /// `self` applied after `first`.
    public func after(_ first: Calibration) -> Calibration {
        let m = matrix, n = first.matrix
        return Calibration(matrix: [
            m[0] * n[0] + m[1] * n[3], m[0] * n[1] + m[1] * n[4], m[0] * n[2] + m[1] * n[5] + m[2],
            m[3] * n[0] + m[4] * n[3], m[3] * n[1] + m[4] * n[4], m[3] * n[2] + m[4] * n[5] + m[5],
        ])
    }

    public var isIdentity: Bool { self == .identity }

    @inline(__always)
    public func apply(_ nx: Double, _ ny: Double) -> (Double, Double) {
        (a * nx + b * ny + c, d * nx + e * ny + f)
    }
}
