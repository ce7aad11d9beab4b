import InputCore
import StrokeTracker

extension GestureRecognizer {
    /// Where the current touch sequence stands. Transitions (docs/gestures.md, "States"):
    ///
    /// - `idle` → finger down → `possible`
    /// - `possible` → a finger past the touch slop → `moving`; the hold timeout → `holding`;
    ///   the last finger up → tap (and maybe double tap) → `idle`; a cancelled or adopted stroke,
    ///   a finger down after one lifted, or too many fingers → `done`
    /// - `moving` → once `settleTime` has passed since the last finger down (or as a finger
    ///   lifts), the centroid past the swipe distance, or the span or angle past theirs →
    ///   `active` (`begin`); a finger up, or a cancelled stroke → `done`
    /// - `holding`, `active` → a finger up or down → `end`; a cancelled stroke → `cancel`; → `done`
    /// - `done` → the last finger up → `idle`
    enum State: Sendable {
        case idle
        /// Fingers down and still (`lifted`: some already up, so a tap may follow, not a hold).
        case possible(lifted: Bool)
        /// A finger past the slop, nothing recognised yet.
        case moving
        case holding(Ongoing)
        /// A swipe, edge swipe, pinch or rotate under way.
        case active(Ongoing)
        /// Nothing more comes of this sequence: waiting for every finger to lift.
        case done
    }

    /// A continuous gesture under way.
    struct Ongoing: Sendable {
        var id: UInt64
        var kind: Gesture.Kind
        var strokes: [StrokeID]
        var edge: Gesture.Edge?
        /// Pinch: the span at `begin`. Rotate: the angle turned so far.
        var spanAtBegin = 0.0
        var angle = 0.0
        /// Swipes measure their displacement from the centroid when the fingers were all down.
        var origin: Position
        /// Its last step's time: a later step is never earlier (a hold fired on the daemon's timer
        /// at its timeout, then cancelled with the time of the last frame, which came before).
        var lastStep: Timestamp?
    }

    /// The state machine's one input: a frame's changes, the contacts already updated.
    mutating func step(_ f: FrameChange, time: Timestamp, ids: inout UInt64, into out: inout [Gesture]) {
        let down = contacts.reduce(0) { $0 + ($1.down ? 1 : 0) }
        switch state {
        case .idle:
            guard f.added else { return contacts.removeAll(keepingCapacity: true) }
            firstDown = time
            lastTap = lastTap.flatMap { time.microseconds(since: $0.liftedAt) <= configuration.doubleTapTimeout ? $0 : nil }
            reanchor(time)
            state = .possible(lifted: false)
            step(FrameChange(moved: f.moved, lifted: f.lifted, cancelled: f.cancelled, adopted: f.adopted), time: time, ids: &ids, into: &out)
        case .possible(let lifted):
            if f.cancelled || f.adopted || (f.added && lifted) || contacts.count > configuration.maxFingers {
                return finish(down: down)
            }
            // Every frame is sampled, within the slop too: a gap between samples is then a rest
            // (no frames), which the velocity relies on.
            if f.added { reanchor(time) } else if f.moved { sample(time) }
            if contacts.contains(where: { metric.distance($0.now, $0.start) > metric.length(configuration.touchSlop) }) {
                guard !lifted else { return finish(down: down) }
                state = .moving
                return step(FrameChange(moved: true, lifted: f.lifted), time: time, ids: &ids, into: &out)
            }
            guard f.lifted || lifted else { return }
            if down > 0 {
                state = .possible(lifted: true)
            } else {
                // Every finger lifted before `holdTimeout`, or it is no tap: once one lifted no
                // hold can fire, so a finger resting on after it is a long press that gives nothing.
                if time.microseconds(since: firstDown) < configuration.holdTimeout { tap(time, ids: &ids, into: &out) }
                state = .idle
            }
        case .moving:
            if f.cancelled || f.adopted || contacts.count > configuration.maxFingers { return finish(down: down) }
            if f.added {
                reanchor(time)
                return
            }
            sample(time)
            let settled = time.microseconds(since: anchoredAt) >= configuration.settleTime
            if settled || f.lifted, let kind = recognise(time) {
                begin(kind, time: time, ids: &ids, into: &out)
                if f.lifted, case .active(let g) = state { end(g, .end, time: time, into: &out, down: down) }
            } else if f.lifted {
                finish(down: down)
            }
        case .holding(let g):
            if f.cancelled {
                end(g, .cancel, time: time, into: &out, down: down)
            } else if f.lifted || f.added {
                end(g, .end, time: time, into: &out, down: down)
            }
        case .active(var g):
            if f.cancelled { return end(g, .cancel, time: time, into: &out, down: down) }
            // A finger that lands is not the gesture's: its place is not in the velocity.
            if f.added { return end(g, .end, time: time, into: &out, down: down) }
            sample(time, fingers: g.strokes.count)
            if f.lifted { return end(g, .end, time: time, into: &out, down: down) }
            guard f.moved else { return }
            out.append(step(of: &g, .update, time: time))
            state = .active(g)
        case .done:
            if down == 0 { state = .idle }
        }
    }

    /// A hold's timeout passed with the fingers down and still.
    mutating func fireHold(at time: Timestamp, ids: inout UInt64, into out: inout [Gesture]) {
        switch state {
        case .possible(lifted: false):
            ids += 1
            var g = Ongoing(id: ids, kind: .hold, strokes: contacts.map(\.stroke), origin: contacts.centroid(.now))
            out.append(step(of: &g, .begin, time: time))
            state = .holding(g)
        case .idle, .possible(lifted: true), .moving, .holding, .active, .done:
            return
        }
    }

    /// No gesture comes of the rest of the sequence.
    private mutating func finish(down: Int) {
        state = down == 0 ? .idle : .done
    }

    private mutating func end(_ g: Ongoing, _ phase: Gesture.Phase, time: Timestamp, into out: inout [Gesture], down: Int) {
        var g = g
        out.append(step(of: &g, phase, time: time))
        finish(down: down)
    }

    /// The fingers changed: displacement, span and angle are measured from here.
    mutating func reanchor(_ time: Timestamp) {
        for i in contacts.indices { contacts[i].anchor = contacts[i].now }
        anchoredAt = time
        samples.removeAll()
        samples.append(time, contacts.centroid(.now), metric: metric)
    }

    /// Records the centroid of the first `fingers` contacts (the gesture's; all by default).
    mutating func sample(_ time: Timestamp, fingers: Int = .max) {
        samples.append(time, contacts.prefix(fingers).centroid(.now), metric: metric)
    }

    /// Which continuous gesture the movement since the anchors makes, if any: the one whose
    /// measure is the farthest past its threshold.
    private func recognise(_ time: Timestamp) -> Gesture.Kind? {
        let c = configuration
        let moved = metric.distance(contacts.centroid(.now), contacts.centroid(.anchor))
        let fast = samples.speed(window: c.velocityWindow, metric: metric).metric >= metric.length(c.swipeMinimumVelocity)
        var best: (kind: Gesture.Kind, ratio: Double)? = nil
        func consider(_ kind: Gesture.Kind, _ ratio: Double) {
            if ratio >= 1, ratio > (best?.ratio ?? 0) { best = (kind, ratio) }
        }
        if fast { consider(.swipe, moved / max(metric.length(c.swipeDistance), .ulpOfOne)) }
        if contacts.count >= 2 {
            let span0 = contacts.span(.anchor, metric: metric)
            if span0 >= metric.length(c.minimumSpan) {
                let span = contacts.span(.now, metric: metric)
                consider(.pinch, abs(span - span0) / max(metric.length(c.spanSlop), .ulpOfOne))
                consider(.rotate, abs(contacts.turn(metric: metric)) / c.rotateAngle)
            }
        }
        return best?.kind
    }

    private mutating func begin(_ kind: Gesture.Kind, time: Timestamp, ids: inout UInt64, into out: inout [Gesture]) {
        ids += 1
        var g = Ongoing(id: ids, kind: kind, strokes: contacts.map(\.stroke), origin: contacts.centroid(.anchor))
        switch kind {
        case .swipe:
            if let edge = startingEdge(), direction(from: g.origin, to: contacts.centroid(.now), ways: 4) == edge.inward {
                g.kind = .edgeSwipe
                g.edge = edge
            }
        case .pinch:
            reanchor(time)
            g.spanAtBegin = contacts.span(.anchor, metric: metric)
        case .rotate:
            reanchor(time)
        case .tap, .doubleTap, .hold, .edgeSwipe:
            break
        }
        out.append(step(of: &g, .begin, time: time))
        state = .active(g)
    }

    /// A tap of every finger of the sequence, and a double tap when it is the second of two.
    private mutating func tap(_ time: Timestamp, ids: inout UInt64, into out: inout [Gesture]) {
        let strokes = contacts.map(\.stroke)
        let centroid = contacts.centroid(.now)
        ids += 1
        var g = Gesture(
            id: ids, kind: .tap, phase: .end, device: device, time: time, strokes: strokes, centroid: centroid,
            duration: time.microseconds(since: firstDown))
        out.append(g)
        if let first = lastTap, first.strokes.count == strokes.count,
            firstDown.microseconds(since: first.liftedAt) >= configuration.doubleTapMinTime,
            firstDown.microseconds(since: first.liftedAt) <= configuration.doubleTapTimeout,
            metric.distance(first.centroid, centroid) <= metric.length(configuration.doubleTapSlop)
        {
            ids += 1
            g.id = ids
            g.kind = .doubleTap
            g.strokes = first.strokes + strokes
            out.append(g)
            lastTap = nil
        } else {
            lastTap = Tap(liftedAt: time, centroid: centroid, strokes: strokes)
        }
    }

    /// The edge the sequence's first finger went down near, on a touchscreen.
    private func startingEdge() -> Gesture.Edge? {
        guard recognisesEdges, let first = contacts.first else { return nil }
        let p = metric.point(first.start)
        let margin = metric.length(configuration.edgeMargin)
        let distances: [(Gesture.Edge, Double)] = [(.left, p.x), (.right, width - p.x), (.top, p.y), (.bottom, height - p.y)]
        guard let nearest = distances.min(by: { $0.1 < $1.1 }), nearest.1 <= margin else { return nil }
        return nearest.0
    }
}

extension Gesture.Edge {
    /// The direction that leaves this edge for the middle.
    var inward: Gesture.Direction {
        switch self {
        case .left: .right
        case .right: .left
        case .top: .down
        case .bottom: .up
        }
    }
}
