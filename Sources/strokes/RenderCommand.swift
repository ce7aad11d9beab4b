import ArgumentParser
import StrokeClient
import StrokeRecording
import StrokeRender
import SystemSupport

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw strokes as SVG or PNG: from a recording, or from a running daemon.",
        discussion: """
            One panel per device in its aspect ratio (millimetres where the resolution is known), \
            each stroke a polyline in raw sensor coordinates: a dot where it began, dashed when \
            cancelled, a ring on the last point of a finger still down; width from pressure or touch \
            major where the device reports them. PNG output needs rsvg-convert (Debian package \
            librsvg2-bin).
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case svg
        case png
    }

    @Argument(help: ArgumentHelp(
        "A recording ('-' for standard input); with --socket, the daemon's socket.",
        valueName: "file-or-socket"))
    var source: String?

    @Flag(help: ArgumentHelp(
        "Draw what a running daemon holds: its completed strokes (history, the latest 1 000 000 at most) and those in progress.",
        discussion: "The socket is the positional argument; when absent, $STROKES_SOCKET, else /run/strokes/strokes.sock, else $XDG_RUNTIME_DIR/strokes.sock."))
    var socket = false

    @Option(name: .shortAndLong, help: "Output file, .svg or .png ('-': standard output).")
    var output: String

    @Option(help: "svg or png. Default: png for a .png output, else svg.")
    var format: Format?

    @Option(help: "Only what happened from this many seconds on (from the recording's earliest event, its first unless its clock stepped back, or the earliest point the daemon gave).")
    var from: Double?

    @Option(help: "Only what happened up to this many seconds.")
    var to: Double?

    @Option(name: .customLong("stroke"), help: "Only this stroke (repeatable).")
    var strokes: [UInt64] = []

    @Option(name: .customLong("device"), help: "Only this device (repeatable).")
    var devices: [UInt32] = []

    @Option(help: "One colour per stroke or per kernel slot: stroke or slot.")
    var colorBy: SVGRenderer.ColorBy = .stroke

    @Option(help: "The longer side of each device's drawing, in pixels.")
    var size: Double = 1000

    @Option(help: "Draw every stroke this wide (pixels) instead of from pressure or touch major.")
    var lineWidth: Double?

    @Flag(help: "Also draw where a pen (or a contact that reports a distance) hovered, as thin dashed grey lines (recordings only).")
    var hover = false

    @Flag(help: "Write each stroke's id beside where it began.")
    var labels = false

    @Option(help: ArgumentHelp(
        "With --socket: also follow the live stream for this many seconds before drawing.",
        discussion: "Cancelled strokes, which the daemon's history does not keep, appear only this way."))
    var follow: Double = 0

    private var chosenFormat: Format { format ?? (output.lowercased().hasSuffix(".png") ? .png : .svg) }

    func validate() throws {
        if !socket && source == nil { throw ValidationError("name a recording to draw, or --socket for a running daemon") }
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, !(value >= 0 && value <= 1e12) {
                throw ValidationError("\(name) must be from 0 to 1e12 seconds")
            }
        }
        if let from, let to, from > to { throw ValidationError("--from must not be after --to") }
        guard size >= 16, size <= 100_000 else { throw ValidationError("--size must be between 16 and 100000 pixels") }
        // rsvg-convert makes no image wider or taller than 32767 pixels: refused here, not after
        // drawing with its raw message and exit 70 (an adversary's finding).
        if chosenFormat == .png && size > 32767 { throw ValidationError("--size must be at most 32767 pixels for PNG (rsvg-convert's limit)") }
        if let lineWidth, !(lineWidth > 0 && lineWidth <= 1000) { throw ValidationError("--line-width must be above 0 and at most 1000 (pixels)") }
        // At most a million seconds (11.6 days): the deadline is counted in nanoseconds.
        guard follow >= 0, follow <= 1e6 else { throw ValidationError("--follow must be from 0 to 1000000 seconds") }
        if follow > 0 && !socket { throw ValidationError("--follow needs --socket") }
    }

    func run() throws {
        let scene: RenderScene
        if socket {
            scene = try DaemonScene.fetch(path: source ?? StrokeClient.defaultSocketPath, follow: follow)
        } else {
            scene = try sceneFromRecording(source!)
        }
        let filter = RenderFilter(from: from, to: to, strokes: Set(strokes), devices: Set(devices))
        let svg = SVGRenderer(options: .init(size: size, colorBy: colorBy, lineWidth: lineWidth, labels: labels, hover: hover))
            .render(scene.filtered(filter))
        switch chosenFormat {
        case .svg: try write(svg)
        case .png: try PNGConverter.convert(svg: svg, to: output)
        }
    }

    private func sceneFromRecording(_ path: String) throws -> RenderScene {
        var out = OutputBuffer()
        let stream = try openRecording(path, flushing: &out)
        do {
            return try RenderScene(stream: stream, title: path == "-" ? "standard input" : lastPathComponent(path))
        } catch let error as RecordingError {
            printError(error.description)
            throw Exit.dataError
        } catch {
            printError("\(path): \(error)")
            throw Exit.dataError
        }
    }

    private func write(_ svg: String) throws {
        if output == "-" {
            writeAll(1, Array(svg.utf8))
            return
        }
        do {
            try Files.writeAtomically(Array(svg.utf8), to: output)
        } catch {
            printError("cannot write \(output): \(error)")
            throw Exit.cannotCreate
        }
    }
}

/// The name after the last `/` (trailing slashes ignored), as `NSString.lastPathComponent` gives it.
func lastPathComponent(_ path: String) -> String {
    let trimmed = path.reversed().drop { $0 == "/" }.reversed()
    guard !trimmed.isEmpty else { return path.isEmpty ? "" : "/" }
    return String(trimmed.split(separator: "/", omittingEmptySubsequences: false).last!)
}

extension SVGRenderer.ColorBy: ExpressibleByArgument {}
