import StrokeDaemon
import StrokeRender

/// `GET /render.svg`: the picture `strokes render --socket` draws of this daemon (its devices, its
/// history of completed strokes and the strokes in progress), built on the daemon's loop.
enum RenderSVG {
    static func picture(of daemon: Daemon) -> String {
        let hub = daemon.hub
        let devices = hub.deviceInfos.map {
            RenderScene.TrackedDevice(id: $0.id, name: $0.description.name, kind: $0.description.kind.rawValue, geometry: $0.geometry)
        }
        let strokes = hub.tracker.completed.map(\.stroke) + hub.tracker.live
        let scene = RenderScene(title: "strokes daemon", devices: devices, strokes: strokes)
        return SVGRenderer().render(scene)
    }
}
