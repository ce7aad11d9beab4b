import StrokeProtocol

/// Gestures as the daemon sends them, with only what a test sets.
func gesture(
    _ kind: GestureMessage.Kind, _ phase: GestureMessage.Phase = .end, fingers: Int = 1, device: UInt32 = 1,
    duration: Int64 = 100_000, direction: GestureMessage.Direction? = nil, edge: GestureMessage.Edge? = nil,
    scale: Double? = nil, angle: Double? = nil, dmm: (Double, Double)? = nil, velocity: Double? = nil
) -> GestureMessage {
    GestureMessage(
        gesture: 7, kind: kind, phase: phase, device: device, time: 1_000_000, fingers: fingers, strokes: [3, 4],
        x: 100, y: 200, nx: 0.25, ny: 0.5, duration: duration, dmmX: dmm?.0, dmmY: dmm?.1, direction: direction,
        velocity: velocity, edge: edge, scale: scale, angle: angle)
}
