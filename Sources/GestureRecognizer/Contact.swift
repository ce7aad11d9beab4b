import InputCore
import StrokeTracker

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A finger of the current touch sequence (first finger down to last finger up).
struct Contact: Sendable {
    var stroke: StrokeID
    /// Where it went down: the tap and hold slop is measured from here.
    var start: Position
    /// Where it was when the fingers last changed (or a pinch or rotate began, or, while a
    /// rotation goes on, the previous frame): what displacement, span and angle are measured from.
    var anchor: Position
    var now: Position
    /// Still touching; a lifted or cancelled contact is kept while a tap may still come of it.
    var down = true

    init(stroke: StrokeID, at p: Position) {
        self.stroke = stroke
        start = p
        anchor = p
        now = p
    }

    /// Which of a contact's positions (a key path here would be looked up at run time, per
    /// contact per frame).
    enum Place { case anchor, now }

    @inline(__always)
    func position(_ place: Place) -> Position {
        switch place {
        case .anchor: anchor
        case .now: now
        }
    }
}

/// Measures contacts in the recogniser's unit: millimetres on a device with a resolution, else
/// normalised units.
struct Metric: Sendable {
    let millimetres: Bool

    func point(_ p: Position) -> (x: Double, y: Double) {
        if millimetres, let x = p.mmX, let y = p.mmY { return (x, y) }
        return (p.nx, p.ny)
    }

    func length(_ l: GestureConfiguration.Length) -> Double { millimetres ? l.mm : l.normalized }

    func distance(_ a: Position, _ b: Position) -> Double {
        let p = point(a), q = point(b)
        return ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
    }
}

extension Collection where Element == Contact {
    /// The mean of `at`'s positions (in every unit that all of them have).
    func centroid(_ at: Contact.Place) -> Position {
        var x = 0.0, y = 0.0, nx = 0.0, ny = 0.0, mmX: Double? = 0, mmY: Double? = 0
        for c in self {
            let p = c.position(at)
            x += p.x
            y += p.y
            nx += p.nx
            ny += p.ny
            if let m = p.mmX, let s = mmX { mmX = s + m } else { mmX = nil }
            if let m = p.mmY, let s = mmY { mmY = s + m } else { mmY = nil }
        }
        let n = Double(Swift.max(count, 1))
        return Position(x: x / n, y: y / n, nx: nx / n, ny: ny / n, mmX: mmX.map { $0 / n }, mmY: mmY.map { $0 / n })
    }

    /// Twice the fingers' mean distance from their centroid (Android's span: a diameter).
    func span(_ at: Contact.Place, metric: Metric) -> Double {
        guard count >= 2 else { return 0 }
        let c = metric.point(centroid(at))
        var sum = 0.0
        for contact in self {
            let p = metric.point(contact.position(at))
            sum += ((p.x - c.x) * (p.x - c.x) + (p.y - c.y) * (p.y - c.y)).squareRoot()
        }
        return 2 * sum / Double(count)
    }

    /// The fingers' mean turn around their centroid from `anchor` to `now`, degrees, clockwise on
    /// screen (y grows down), each finger's turn taken within ±180°.
    func turn(metric: Metric) -> Double {
        guard count >= 2 else { return 0 }
        let c0 = metric.point(centroid(.anchor)), c1 = metric.point(centroid(.now))
        var sum = 0.0
        for contact in self {
            let p0 = metric.point(contact.anchor), p1 = metric.point(contact.now)
            var d = atan2Degrees(p1.y - c1.y, p1.x - c1.x) - atan2Degrees(p0.y - c0.y, p0.x - c0.x)
            if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
            sum += d
        }
        return sum / Double(count)
    }
}

func atan2Degrees(_ y: Double, _ x: Double) -> Double { atan2(y, x) * 180 / .pi }
