import InputCore
import StrokeTracker

extension GestureRecognizer {
    /// The gesture step `g` makes now: its fingers' centroid and the values of its kind. A
    /// rotation's angle is summed frame by frame (so it goes past ±180°).
    mutating func step(of g: inout Ongoing, _ phase: Gesture.Phase, time: Timestamp) -> Gesture {
        let time = max(time, g.lastStep ?? time)
        g.lastStep = time
        let fingers = contacts.prefix(g.strokes.count)
        let centroid = fingers.centroid(.now)
        var out = Gesture(
            id: g.id, kind: g.kind, phase: phase, device: device, time: time, strokes: g.strokes, centroid: centroid,
            duration: time.microseconds(since: firstDown))
        switch g.kind {
        case .swipe, .edgeSwipe:
            var d = Displacement(dnx: centroid.nx - g.origin.nx, dny: centroid.ny - g.origin.ny)
            if let x = centroid.mmX, let y = centroid.mmY, let x0 = g.origin.mmX, let y0 = g.origin.mmY {
                d.dmmX = x - x0
                d.dmmY = y - y0
            }
            out.displacement = d
            out.direction = direction(from: g.origin, to: centroid, ways: configuration.directions)
            let speed = samples.speed(window: configuration.velocityWindow, metric: metric)
            out.velocity = metric.millimetres ? speed.metric : nil
            out.normalizedVelocity = speed.normalized
            out.edge = g.edge
        case .pinch:
            let span = fingers.span(.now, metric: metric)
            out.scale = g.spanAtBegin > 0 ? span / g.spanAtBegin : 1
        case .rotate:
            if phase != .begin {
                g.angle += fingers.turn(metric: metric)
                for i in fingers.indices { contacts[i].anchor = contacts[i].now }
            }
            out.angle = g.angle
        case .tap, .doubleTap, .hold:
            break
        }
        return out
    }

    /// The direction of the move from `a` to `b`, in 4 or 8 ways (screen directions: y grows
    /// down). Nil for no move.
    func direction(from a: Position, to b: Position, ways: Int) -> Gesture.Direction? {
        let p = metric.point(a), q = metric.point(b)
        let dx = q.x - p.x, dy = q.y - p.y
        guard dx != 0 || dy != 0 else { return nil }
        if ways == 4 {
            if abs(dx) >= abs(dy) { return dx > 0 ? .right : .left }
            return dy > 0 ? .down : .up
        }
        // Eight sectors of 45°, centred on the axes and the diagonals; degrees clockwise from right.
        let sector = Int(((atan2Degrees(dy, dx) + 360 + 22.5).truncatingRemainder(dividingBy: 360)) / 45)
        let ways: [Gesture.Direction] = [.right, .downRight, .down, .downLeft, .left, .upLeft, .up, .upRight]
        return ways[min(sector, 7)]
    }
}

/// The centroid's recent positions, enough to measure its speed over the velocity window: a
/// ring of the newest 32 (more than a 100 ms window holds at 240 Hz), allocated once.
struct VelocitySamples: Sendable {
    private static let capacity = 32
    private var times = [Int64](repeating: 0, count: capacity)
    private var points = [(x: Double, y: Double, nx: Double, ny: Double)](repeating: (0, 0, 0, 0), count: capacity)
    /// Where the next sample goes, and how many are held.
    private var next = 0
    private var count = 0

    mutating func removeAll() { count = 0 }

    mutating func append(_ time: Timestamp, _ p: Position, metric: Metric) {
        let m = metric.point(p)
        times[next] = time.microseconds
        points[next] = (m.x, m.y, p.nx, p.ny)
        next = (next + 1) % Self.capacity
        count = min(count + 1, Self.capacity)
    }

    /// A gap between samples longer than this is a rest, not a slow frame (Android's
    /// `ASSUME_POINTER_STOPPED_TIME`).
    static let stoppedTime: Int64 = 40_000

    /// The speed (per second) from the newest sample back to the oldest within `window` (or just
    /// before it), in the metric's unit and in normalised units; 0 with less than two samples or
    /// no time between them. A finger that rests sends no frames: when the sample before the
    /// window is followed by a rest, the centroid stood there when the window began, so the
    /// displacement is over the window, not over the rest too.
    func speed(window: Int64, metric: Metric) -> (metric: Double, normalized: Double) {
        guard count >= 2 else { return (0, 0) }
        let newest = (next + Self.capacity - 1) % Self.capacity
        let last = times[newest]
        var back = 1
        var i = (newest + Self.capacity - 1) % Self.capacity
        while back < count - 1 && last - times[i] < window {
            back += 1
            i = (i + Self.capacity - 1) % Self.capacity
        }
        var span = last - times[i]
        if span > window, times[(i + 1) % Self.capacity] - times[i] > Self.stoppedTime { span = window }
        let dt = Double(span) / 1_000_000
        guard dt > 0 else { return (0, 0) }
        let a = points[i], b = points[newest]
        let dm = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        let dn = ((b.nx - a.nx) * (b.nx - a.nx) + (b.ny - a.ny) * (b.ny - a.ny)).squareRoot()
        return (dm / dt, dn / dt)
    }
}
