import InputCore
import MultitouchDecoder

/// A stroke's points packed into bytes, about 5 a point where a `StrokePoint` takes 120: the
/// history of a daemon holds thousands of strokes.
///
/// Layout: the first point's 17 fields (in `load`'s order), then per further point a varint
/// bitmap of the fields that changed (bit k: field k) and each changed field's delta from the
/// point before, lowest field first. The time's "delta" is its change from the previous interval
/// (a steady report rate makes it 0). Every value is a zigzag varint; deltas wrap (`&-`, `&+`), so
/// any value round-trips. The fields that vary on touch devices come first, so that their bitmap
/// is one byte. The normalised and millimetre coordinates are not stored: they are derived again
/// from the raw ones and the geometry they were derived with.
///
/// The tracker packs a stroke's points as they come (`PointPacker`), with the geometry it derives
/// them with; `pack` packs finished points, checking that they re-derive.
enum PointPacking {
    static let fieldCount = 17
    /// The most bytes one point takes: its bitmap (3) and 17 varints of up to 10 bytes.
    static let maxPointBytes = 3 + 10 * fieldCount

    /// Packed `points`, or nil when one of them does not re-derive from its raw values with `g`.
    static func pack(_ points: [StrokePoint], geometry g: DeviceGeometry) -> [UInt8]? {
        guard points.allSatisfy({ rederives($0, g) }) else { return nil }
        var packer = PointPacker(buffer: [])
        for i in points.indices {
            if i == 0 {
                packer.start(points[i])
            } else {
                packer.append(time: points[i].time, points[i].sample)
            }
        }
        return packer.bytes
    }

    /// `p`'s fields, in the packed order, at `row[0..<fieldCount]`.
    @inline(__always)
    static func load(_ p: StrokePoint, into row: UnsafeMutablePointer<Int64>) {
        row[0] = p.time.microseconds
        row[1] = Int64(p.x)
        row[2] = Int64(p.y)
        row[3] = Int64(p.pressure)
        row[4] = Int64(p.touchMajor)
        row[5] = Int64(p.touchMinor)
        row[6] = Int64(p.orientation)
        row[7] = Int64(p.distance)
        row[8] = Int64(p.tiltX)
        row[9] = Int64(p.tiltY)
        row[10] = Int64(p.toolType)
        row[11] = Int64(p.rotation)
        row[12] = Int64(p.wheel)
        row[13] = Int64(p.buttons.rawValue)
        row[14] = Int64(p.toolID)
        row[15] = Int64(p.serial)
        row[16] = Int64(p.known.rawValue)
    }

    /// The `count` points packed in `bytes` with `g`.
    static func unpack(_ bytes: [UInt8], count: Int, geometry g: DeviceGeometry) -> [StrokePoint] {
        var points: [StrokePoint] = []
        points.reserveCapacity(count)
        guard count > 0 else { return points }
        var r = VarintReader(bytes: bytes)
        var v = [Int64](repeating: 0, count: fieldCount)
        for k in 0..<fieldCount { v[k] = unzigzag(r.read()) }
        points.append(point(v, g))
        var interval: Int64 = 0
        for _ in 1..<count {
            var changed = r.read()
            var residual: Int64 = 0
            while changed != 0 {
                let k = changed.trailingZeroBitCount
                changed &= changed - 1
                let delta = unzigzag(r.read())
                if k == 0 { residual = delta } else { v[k] = v[k] &+ delta }
            }
            interval = interval &+ residual
            v[0] = v[0] &+ interval
            points.append(point(v, g))
        }
        precondition(r.offset == r.end, "PointPacking: \(r.end - r.offset) bytes left after \(count) points")
        return points
    }

    /// The point whose fields (in `load`'s order) are `v`, derived with `g`.
    private static func point(_ v: [Int64], _ g: DeviceGeometry) -> StrokePoint {
        var s = ContactSample(known: [])
        s.x = Int32(truncatingIfNeeded: v[1])
        s.y = Int32(truncatingIfNeeded: v[2])
        s.pressure = Int32(truncatingIfNeeded: v[3])
        s.touchMajor = Int32(truncatingIfNeeded: v[4])
        s.touchMinor = Int32(truncatingIfNeeded: v[5])
        s.orientation = Int32(truncatingIfNeeded: v[6])
        s.distance = Int32(truncatingIfNeeded: v[7])
        s.tiltX = Int32(truncatingIfNeeded: v[8])
        s.tiltY = Int32(truncatingIfNeeded: v[9])
        s.toolType = Int32(truncatingIfNeeded: v[10])
        s.rotation = Int32(truncatingIfNeeded: v[11])
        s.wheel = Int32(truncatingIfNeeded: v[12])
        s.buttons = PenButtons(rawValue: UInt8(truncatingIfNeeded: v[13]))
        s.toolID = Int32(truncatingIfNeeded: v[14])
        s.serial = UInt32(truncatingIfNeeded: v[15])
        s.known = KnownAxes(rawValue: UInt16(truncatingIfNeeded: v[16]))
        return StrokePoint(time: Timestamp(microseconds: v[0]), sample: s, geometry: g)
    }

    /// Whether `p`'s derived coordinates are, bit for bit, those `g` derives from its raw ones.
    private static func rederives(_ p: StrokePoint, _ g: DeviceGeometry) -> Bool {
        var nx = g.normalized(x: p.x)
        var ny = g.normalized(y: p.y)
        if g.calibrated { (nx, ny) = g.calibration.apply(nx, ny) }
        guard nx.bitPattern == p.nx.bitPattern, ny.bitPattern == p.ny.bitPattern else { return false }
        switch (g.millimetres(x: p.x, y: p.y), p.mmX, p.mmY) {
        case (nil, nil, nil): return true
        case let (mm?, x?, y?): return mm.x.bitPattern == x.bitPattern && mm.y.bitPattern == y.bitPattern
        case (_, _, _): return false
        }
    }

    @inline(__always)
    static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }

    @inline(__always)
    static func unzigzag(_ u: UInt64) -> Int64 { Int64(bitPattern: u >> 1) ^ -Int64(bitPattern: u & 1) }
}

/// Packs a stroke's points one at a time (`PointPacking`'s layout) into a buffer it grows.
struct PointPacker: Sendable {
    /// Zero-filled room; `buffer[..<count]` holds the packed points.
    private(set) var buffer: [UInt8]
    private(set) var count = 0
    /// The interval between the last two points packed.
    private var interval: Int64 = 0
    /// The last point packed, its time and raw values: what the next point's deltas are from (kept
    /// here rather than read from the stroke's last `StrokePoint`, which the stroke overwrites as
    /// it appends: reading it meant copying it first).
    private var lastMicroseconds: Int64 = 0
    private(set) var lastSample = ContactSample(known: [])

    var lastTime: Timestamp { Timestamp(microseconds: lastMicroseconds) }

    /// Packs into `buffer` (its contents are overwritten; a buffer of a finished stroke is reused).
    init(buffer: [UInt8]) {
        self.buffer = buffer
    }

    /// Hands the buffer over (for another stroke), leaving this packer empty.
    mutating func takeBuffer() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &buffer)
        count = 0
        return taken
    }

    /// The packed bytes, in an array of their size.
    var bytes: [UInt8] { Array(buffer[..<count]) }

    /// Packs the first point.
    mutating func start(_ p: StrokePoint) {
        count = 0
        interval = 0
        lastMicroseconds = p.time.microseconds
        lastSample = p.sample
        reserve()
        buffer.withUnsafeMutableBufferPointer { b in
            withUnsafeTemporaryAllocation(of: Int64.self, capacity: PointPacking.fieldCount) { row in
                let fields = row.baseAddress!
                PointPacking.load(p, into: fields)
                var w = VarintWriter(base: b.baseAddress!, count: count)
                for k in 0..<PointPacking.fieldCount { w.write(PointPacking.zigzag(fields[k])) }
                count = w.count
            }
        }
    }

    /// Packs the point of `p` at `time` (what `StrokePoint(time:sample:geometry:)` makes of them),
    /// which follows the last point packed.
    @inline(__always)
    mutating func append(time: Timestamp, _ p: ContactSample) {
        withUnsafePointer(to: p) { append(time: time, $0) }
    }

    /// `append(time:_:)` with the sample read in place (the tracker's path: the decoder's event,
    /// where a copy of it on the stack was read back across two of its stores, which the CPU
    /// cannot forward: a stall per motion).
    @inline(__always)
    mutating func append(time: Timestamp, _ p: UnsafePointer<ContactSample>) {
        let now = time.microseconds &- lastMicroseconds
        let residual = now &- interval
        interval = now
        reserve()
        // Touch points change only in the first 7 fields (time, position, pressure, shape): their
        // bitmap is one byte and only those 7 deltas need computing.
        if p.pointee.samePenFields(as: lastSample) {
            appendTouch(p, residual: residual)
        } else {
            appendAnyChange(time: time, p.pointee, residual: residual)
        }
        lastMicroseconds = time.microseconds
        lastSample = p.pointee
    }

    /// `append` for a point whose fields past the seventh are the last point's. The bitmap's byte
    /// is written last, each delta as it is computed: computing the seven first kept them all in
    /// registers and spilled them.
    @inline(__always)
    private mutating func appendTouch(_ p: UnsafePointer<ContactSample>, residual: Int64) {
        buffer.withUnsafeMutableBufferPointer { b in
            let q = lastSample
            var w = VarintWriter(base: b.baseAddress!, count: count &+ 1)
            var changed: UInt8 = 0
            w.field(residual, 1 << 0, &changed)
            w.field(Int64(p.pointee.x) &- Int64(q.x), 1 << 1, &changed)
            w.field(Int64(p.pointee.y) &- Int64(q.y), 1 << 2, &changed)
            w.field(Int64(p.pointee.pressure) &- Int64(q.pressure), 1 << 3, &changed)
            w.field(Int64(p.pointee.touchMajor) &- Int64(q.touchMajor), 1 << 4, &changed)
            w.field(Int64(p.pointee.touchMinor) &- Int64(q.touchMinor), 1 << 5, &changed)
            w.field(Int64(p.pointee.orientation) &- Int64(q.orientation), 1 << 6, &changed)
            w.base[count] = changed
            count = w.count
        }
    }

    /// `append` for a point whose fields past the seventh changed. Out of line: inlined, its
    /// loads of all 17 fields were hoisted into the common path.
    @inline(never)
    private mutating func appendAnyChange(time: Timestamp, _ p: ContactSample, residual: Int64) {
        let q = StrokePoint(time: lastTime, raw: lastSample)
        buffer.withUnsafeMutableBufferPointer { b in
            withUnsafeTemporaryAllocation(of: Int64.self, capacity: 2 * PointPacking.fieldCount) { rows in
                let current = rows.baseAddress!, previous = current + PointPacking.fieldCount
                PointPacking.load(StrokePoint(time: time, raw: p), into: current)
                PointPacking.load(q, into: previous)
                current[0] = residual
                previous[0] = 0
                var changed: UInt32 = 0
                for k in 0..<PointPacking.fieldCount {
                    current[k] = current[k] &- previous[k]
                    changed |= (current[k] != 0 ? 1 : 0) << UInt32(k)
                }
                var w = VarintWriter(base: b.baseAddress!, count: count)
                w.write(UInt64(changed))
                while changed != 0 {
                    let k = changed.trailingZeroBitCount
                    changed &= changed - 1
                    w.write(PointPacking.zigzag(current[k]))
                }
                count = w.count
            }
        }
    }

    /// Room for one more point.
    @inline(__always)
    private mutating func reserve() {
        if buffer.count - count < PointPacking.maxPointBytes {
            buffer.append(contentsOf: repeatElement(0, count: Swift.max(buffer.count, 4 * PointPacking.maxPointBytes)))
        }
    }
}

/// LEB128: 7 bits a byte, low first, the top bit set on every byte but the last.
struct VarintWriter {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0

    /// Writes `delta` unless it is 0, noting `bit` in `changed` when it does.
    @inline(__always)
    mutating func field(_ delta: Int64, _ bit: UInt8, _ changed: inout UInt8) {
        guard delta != 0 else { return }
        changed |= bit
        write(PointPacking.zigzag(delta))
    }

    @inline(__always)
    mutating func write(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: v) | 0x80
            v >>= 7
            count &+= 1
        }
        base[count] = UInt8(truncatingIfNeeded: v)
        count &+= 1
    }
}

struct VarintReader {
    let bytes: [UInt8]
    var offset = 0
    var end: Int { bytes.count }

    mutating func read() -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }
}

extension ContactSample {
    /// The same values in the fields packed after the seventh (pen axes, tool, buttons, `known`):
    /// one test for all ten, without a branch per field.
    @inline(__always)
    func samePenFields(as o: ContactSample) -> Bool {
        let axes = (distance ^ o.distance) | (tiltX ^ o.tiltX) | (tiltY ^ o.tiltY) | (toolType ^ o.toolType)
            | (rotation ^ o.rotation) | (wheel ^ o.wheel) | (toolID ^ o.toolID)
        let rest = (serial ^ o.serial) | UInt32(buttons.rawValue ^ o.buttons.rawValue) | UInt32(known.rawValue ^ o.known.rawValue)
        return axes == 0 && rest == 0
    }
}
