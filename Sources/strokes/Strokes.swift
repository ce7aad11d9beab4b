import ArgumentParser
import StrokeDaemon

@main
struct Strokes: AsyncParsableCommand {
    static let version = Daemon.version

    static let configuration = CommandConfiguration(
        commandName: "strokes",
        abstract: "Turns Linux multitouch input into per-finger strokes.",
        discussion: """
            Reads touchscreens and touchpads (kernel multitouch protocol B) and publishes stroke \
            lifecycle events: began, moved, ended, cancelled.
            """,
        version: version,
        subcommands: [DaemonCommand.self, WatchCommand.self, GesturesCommand.self, DevicesCommand.self, RecordCommand.self, ReplayCommand.self, RenderCommand.self, DescribeCommand.self]
    )
}
