import InputCore
import MultitouchDecoder

/// A completed stroke's points packed into bytes, about 5 a point where a `StrokePoint` takes
/// 112: the history of a daemon holds thousands of strokes.
///
/// Layout: a varint mask of the fields that change between points (bit k: field k of
/// `load`), the first point's 17 fields, then per further point a varint of which of
/// those fields changed (bit r: the r-th field of the mask) and each changed field's delta from
/// the point before. The time's "delta" is its change from the previous interval (a steady report
/// rate makes it small). Every value is a zigzag varint; deltas wrap (`&-`, `&+`), so any value
/// round-trips. The normalised and millimetre coordinates are not stored: they are derived
/// again from the raw ones and the geometry they were derived with (`pack` refuses points that
/// do not re-derive bit for bit, such as those of a stroke that outlived a calibration change).
enum PointPacking {
    /// Packed `points`, or nil when one of them does not re-derive from its raw values with `g`.
    /// `scratch` is a buffer reused between calls.
    static func pack(_ points: [StrokePoint], geometry g: DeviceGeometry, scratch: inout [UInt8]) -> [UInt8]? {
        points.withUnsafeBufferPointer { pack($0, geometry: g, scratch: &scratch) }
    }

    private static func pack(
        _ points: UnsafeBufferPointer<StrokePoint>, geometry g: DeviceGeometry, scratch: inout [UInt8]
    ) -> [UInt8]? {
        // Plain loops over each point's fields loaded into two rows of a stack buffer: closures
        // over the fields cost a call per field in the per-stroke path.
        withUnsafeTemporaryAllocation(of: Int64.self, capacity: 3 * fieldCount) { rows in
            let row = rows.baseAddress!
            var previous = row, current = row + fieldCount
            // Per field, the OR of its changes (branch-free), then the fields that changed.
            let changes = row + 2 * fieldCount
            changes.initialize(repeating: 0, count: fieldCount)
            for i in points.indices {
                guard rederives(points[i], g) else { return nil }
                load(points[i], into: current)
                if i > 0 {
                    for k in 0..<fieldCount { changes[k] |= current[k] ^ previous[k] }
                }
                swap(&previous, &current)
            }
            var mask: UInt32 = points.count > 1 ? 1 : 0  // the time's residual is its own, not a change
            var varying = 0  // `changes[0..<varying]`: the indices of the mask's fields
            for k in 0..<fieldCount where k == 0 ? mask != 0 : changes[k] != 0 {
                mask |= 1 << UInt32(k)
                changes[varying] = Int64(k)
                varying += 1
            }
            let worst = 5 + 10 * (fieldCount + 1) * points.count
            if scratch.count < worst { scratch = [UInt8](repeating: 0, count: worst) }
            let count = scratch.withUnsafeMutableBufferPointer { buffer in
                var w = VarintWriter(base: buffer.baseAddress!)
                w.write(UInt64(mask))
                load(points[0], into: previous)
                for k in 0..<fieldCount { w.write(zigzag(previous[k])) }
                var interval: Int64 = 0
                for i in points.indices.dropFirst() {
                    load(points[i], into: current)
                    // The time's residual in place of its delta: field 0 of `current` becomes the
                    // previous point's time plus that residual, so the loops below need no case.
                    let now = current[0] &- previous[0]
                    let residual = now &- interval
                    interval = now
                    let time = current[0]
                    current[0] = previous[0] &+ residual
                    if varying <= 7 {
                        // The bitmap is one byte (its varint is itself): written after the deltas,
                        // in the byte kept before them, in one pass.
                        let at = w.count
                        w.count += 1
                        var changed: UInt8 = 0
                        for r in 0..<varying {
                            let k = Int(changes[r])
                            let delta = current[k] &- previous[k]
                            if delta != 0 {
                                changed |= 1 << UInt8(r)
                                w.write(zigzag(delta))
                            }
                        }
                        w.base[at] = changed
                    } else {
                        var changed: UInt64 = 0
                        for r in 0..<varying {
                            let k = Int(changes[r])
                            changed |= (current[k] != previous[k] ? 1 : 0) << UInt64(r)
                        }
                        w.write(changed)
                        for r in 0..<varying {
                            let k = Int(changes[r])
                            if current[k] != previous[k] { w.write(zigzag(current[k] &- previous[k])) }
                        }
                    }
                    current[0] = time
                    swap(&previous, &current)
                }
                return w.count
            }
            return Array(scratch[..<count])
        }
    }

    /// `p`'s fields, in the packed order, at `row[0..<fieldCount]`.
    @inline(__always)
    private static func load(_ p: StrokePoint, into row: UnsafeMutablePointer<Int64>) {
        row[0] = p.time.microseconds
        row[1] = Int64(p.x)
        row[2] = Int64(p.y)
        row[3] = Int64(p.pressure)
        row[4] = Int64(p.touchMajor)
        row[5] = Int64(p.touchMinor)
        row[6] = Int64(p.orientation)
        row[7] = Int64(p.toolType)
        row[8] = Int64(p.distance)
        row[9] = Int64(p.tiltX)
        row[10] = Int64(p.tiltY)
        row[11] = Int64(p.rotation)
        row[12] = Int64(p.wheel)
        row[13] = Int64(p.toolID)
        row[14] = Int64(p.serial)
        row[15] = Int64(p.buttons.rawValue)
        row[16] = Int64(p.known.rawValue)
    }

    /// The `count` points packed in `bytes` with `g`, as `pack` was given them.
    static func unpack(_ bytes: [UInt8], count: Int, geometry g: DeviceGeometry) -> [StrokePoint] {
        var points: [StrokePoint] = []
        points.reserveCapacity(count)
        guard count > 0 else { return points }
        var r = VarintReader(bytes: bytes)
        let mask = UInt32(truncatingIfNeeded: r.read())
        var v = [Int64](repeating: 0, count: fieldCount)
        for k in 0..<fieldCount { v[k] = unzigzag(r.read()) }
        points.append(point(v, g))
        var interval: Int64 = 0
        for _ in 1..<count {
            let changed = r.read()
            var rank: UInt64 = 0
            for k in 0..<fieldCount where mask & (1 << k) != 0 {
                let delta = changed & (1 << rank) != 0 ? unzigzag(r.read()) : 0
                if k == 0 {
                    interval = interval &+ delta
                    v[0] = v[0] &+ interval
                } else {
                    v[k] = v[k] &+ delta
                }
                rank += 1
            }
            points.append(point(v, g))
        }
        precondition(r.offset == bytes.count, "PointPacking: \(bytes.count - r.offset) bytes left after \(count) points")
        return points
    }

    static let fieldCount = 17

    /// The point whose fields (in `load`'s order) are `v`, derived with `g`.
    private static func point(_ v: [Int64], _ g: DeviceGeometry) -> StrokePoint {
        var s = ContactSample(known: [])
        s.x = Int32(truncatingIfNeeded: v[1])
        s.y = Int32(truncatingIfNeeded: v[2])
        s.pressure = Int32(truncatingIfNeeded: v[3])
        s.touchMajor = Int32(truncatingIfNeeded: v[4])
        s.touchMinor = Int32(truncatingIfNeeded: v[5])
        s.orientation = Int32(truncatingIfNeeded: v[6])
        s.toolType = Int32(truncatingIfNeeded: v[7])
        s.distance = Int32(truncatingIfNeeded: v[8])
        s.tiltX = Int32(truncatingIfNeeded: v[9])
        s.tiltY = Int32(truncatingIfNeeded: v[10])
        s.rotation = Int32(truncatingIfNeeded: v[11])
        s.wheel = Int32(truncatingIfNeeded: v[12])
        s.toolID = Int32(truncatingIfNeeded: v[13])
        s.serial = UInt32(truncatingIfNeeded: v[14])
        s.buttons = PenButtons(rawValue: UInt8(truncatingIfNeeded: v[15]))
        s.known = KnownAxes(rawValue: UInt16(truncatingIfNeeded: v[16]))
        return StrokePoint(time: Timestamp(microseconds: v[0]), sample: s, geometry: g)
    }

    /// Whether `p`'s derived coordinates are, bit for bit, those `g` derives from its raw ones.
    @inline(__always)
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

/// LEB128: 7 bits a byte, low first, the top bit set on every byte but the last.
struct VarintWriter {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0

    @inline(__always)
    mutating func write(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: v) | 0x80
            v >>= 7
            count += 1
        }
        base[count] = UInt8(truncatingIfNeeded: v)
        count += 1
    }
}

struct VarintReader {
    let bytes: [UInt8]
    var offset = 0

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
