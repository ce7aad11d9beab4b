import ArgumentParser

@main
struct Strokes: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "strokes",
        abstract: "Turns Linux multitouch input into per-finger strokes.",
        discussion: """
            Reads touchscreens and touchpads (kernel multitouch protocol B) and publishes stroke \
            lifecycle events: began, moved, ended, cancelled.
            """,
        version: version,
        subcommands: [ReplayCommand.self, DescribeCommand.self]
    )
}
