// swift-tools-version:6.0
import PackageDescription

// Layering (see docs/architecture.md): only `Evdev` imports the C modules; `InputCore`,
// `StrokeRecording`, `MultitouchDecoder`, `StrokeTracker` and `StrokeProtocol` are pure Swift
// (no I/O, no clock) and are tested without devices.
let package = Package(
    name: "strokes",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "strokes", targets: ["strokes"]),
        .library(name: "StrokeProtocol", targets: ["StrokeProtocol"]),
        .library(name: "StrokeClient", targets: ["StrokeClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibevdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),
        .target(name: "CEvdevShims"),
        // The Swift runtime's global-executor hook, for the executable's main.swift (see its header).
        .target(name: "CConcurrencyHook"),
        .target(name: "InputCore"),
        // The one syscall funnel (EINTR retried, typed `Errno`) and the `sockaddr_un` helper, for
        // every module that makes system calls; Glibc and SystemPackage only, no C module.
        .target(name: "SystemSupport", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
        .target(
            name: "Evdev",
            dependencies: [
                "CLibevdev", "CEvdevShims", "InputCore", "SystemSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The YAML the configuration and libinput recordings use, pure Swift: no Foundation (and its
        // ICU) in the daemon's binary (docs/performance.md, "Memory").
        .target(name: "YAMLReader"),
        .target(name: "StrokeRecording", dependencies: ["InputCore", "SystemSupport", "YAMLReader"]),
        .target(name: "MultitouchDecoder", dependencies: ["InputCore"]),
        .target(name: "StrokeTracker", dependencies: ["InputCore", "MultitouchDecoder"]),
        // Pure like the tracker: stroke events in, gesture steps out (docs/gestures.md).
        .target(name: "GestureRecognizer", dependencies: ["InputCore", "MultitouchDecoder", "StrokeTracker"]),
        .target(name: "StrokeProtocol", dependencies: ["StrokeTracker", "GestureRecognizer"]),
        .target(name: "StrokePipeline", dependencies: ["InputCore", "MultitouchDecoder", "StrokeTracker"]),
        .target(
            name: "StrokeReplay",
            dependencies: ["InputCore", "StrokeRecording", "MultitouchDecoder", "StrokeTracker", "StrokePipeline", "StrokeProtocol"]
        ),
        .target(
            name: "StrokeDaemon",
            dependencies: [
                "Evdev", "InputCore", "StrokeRecording", "MultitouchDecoder", "StrokeTracker", "StrokePipeline",
                "StrokeProtocol", "GestureRecognizer", "YAMLReader", "SystemSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The optional HTTP side (README, "Watch in a browser / HTTP"): the page (compiled in), SSE,
        // WebSocket and JSON endpoints, on NIO's HTTP/1 and WebSocket modules.
        .target(
            name: "StrokeHTTP",
            dependencies: [
                "StrokeDaemon", "StrokeProtocol", "StrokeRender", "StrokeTracker", "SystemSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.embedInCode("Page/index.html"), .embedInCode("Page/page.js"), .embedInCode("Page/page.css")]
        ),
        .target(
            name: "StrokeClient",
            dependencies: ["StrokeProtocol", "SystemSupport", .product(name: "SystemPackage", package: "swift-system")]
        ),
        // `strokes gestures`: its configuration (YAML), rule matching, rate limits and the commands it
        // would run, pure; the executable spawns them.
        .target(name: "GestureActions", dependencies: ["StrokeProtocol", "YAMLReader"]),
        .target(
            name: "StrokeRender",
            dependencies: ["InputCore", "StrokeRecording", "StrokeReplay", "StrokeTracker", "StrokeProtocol"]
        ),
        .executableTarget(
            name: "strokes",
            dependencies: [
                "Evdev", "StrokeReplay", "StrokeRecording", "StrokeProtocol", "StrokeDaemon", "StrokeClient", "StrokeRender",
                "GestureActions", "StrokeHTTP", "SystemSupport", "GestureRecognizer", "CConcurrencyHook",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The StrokeClient example (README, "Clients"): built with everything, so it cannot rot.
        .executableTarget(
            name: "strokes-client-example", dependencies: ["StrokeClient", "StrokeProtocol"], path: "examples/StrokeClientExample"
        ),
        // Opt-in: `swift run -c release strokes-bench` (see README, "Performance"). Not run by the tests.
        .target(name: "CMallocCounter", path: "Benchmarks/CMallocCounter"),
        .executableTarget(
            name: "strokes-bench",
            dependencies: [
                "CMallocCounter", "StrokeRecording", "MultitouchDecoder", "StrokeTracker", "StrokePipeline", "StrokeProtocol", "InputCore",
                "GestureRecognizer",
            ],
            path: "Benchmarks/strokes-bench"
        ),
        // Opt-in: `swift run -c release strokes-daemon-bench` (README, "Performance").
        .executableTarget(
            name: "strokes-daemon-bench",
            dependencies: [
                "StrokeDaemon", "StrokeClient", "StrokeRecording", "InputCore", "Evdev",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/strokes-daemon-bench"
        ),
        // Runs inside the QEMU guest of Scripts/kernel-test.sh (README, "Tests through a real kernel").
        .executableTarget(
            name: "strokes-e2e",
            dependencies: ["Evdev", "InputCore", "StrokeRecording", "StrokeReplay", "StrokeTracker", "StrokeProtocol", "StrokeClient"],
            path: "KernelTests/strokes-e2e"
        ),
        .testTarget(name: "InputCoreTests", dependencies: ["InputCore"]),
        .testTarget(
            name: "GestureRecognizerTests",
            dependencies: [
                "GestureRecognizer", "StrokeTracker", "StrokeProtocol", "StrokeReplay", "StrokeRecording", "MultitouchDecoder",
                "InputCore",
            ]
        ),
        .testTarget(name: "EvdevTests", dependencies: ["Evdev", "InputCore"]),
        .testTarget(
            name: "SystemSupportTests",
            dependencies: ["SystemSupport", "StrokeClient", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .testTarget(name: "YAMLReaderTests", dependencies: ["YAMLReader"]),
        .testTarget(name: "StrokeRecordingTests", dependencies: ["StrokeRecording", "InputCore"], resources: [.copy("Hostile")]),
        .testTarget(
            name: "MultitouchDecoderTests",
            dependencies: ["MultitouchDecoder", "StrokeTracker", "StrokeProtocol", "InputCore"]
        ),
        .testTarget(
            name: "ReplayTests",
            dependencies: [
                "StrokeReplay", "StrokeRecording", "StrokeProtocol", "StrokeTracker", "MultitouchDecoder", "Evdev", "GestureRecognizer",
            ],
            resources: [.copy("Fixtures"), .copy("Golden")]
        ),
        .testTarget(name: "CLITests", dependencies: ["strokes", "StrokeClient", "StrokeProtocol", "GestureActions"]),
        // The fuzz targets' oracles (Tests/FuzzRegressionTests/Oracles, shared with Fuzz/ by a
        // symlink) over every input a fuzzer once broke.
        .testTarget(
            name: "FuzzRegressionTests",
            dependencies: [
                "StrokeRecording", "StrokeReplay", "MultitouchDecoder", "StrokeTracker", "StrokeProtocol", "InputCore", "GestureRecognizer",
                "YAMLReader",
            ],
            exclude: ["Regressions"]
        ),
        // The guest driver's model of the kernel's input core, checked on the host too.
        .testTarget(name: "KernelInputFilterTests", dependencies: ["strokes-e2e", "InputCore", "StrokeRecording"]),
        .testTarget(
            name: "RenderTests",
            dependencies: ["StrokeRender", "StrokeRecording", "StrokeReplay", "StrokeTracker", "StrokeProtocol", "InputCore"],
            resources: [.copy("Golden")]
        ),
        .testTarget(name: "StrokeClientTests", dependencies: ["StrokeClient", "StrokeProtocol"]),
        .testTarget(name: "GestureActionsTests", dependencies: ["GestureActions", "StrokeProtocol"]),
        .testTarget(
            name: "StrokeDaemonTests",
            dependencies: [
                "StrokeDaemon", "StrokeClient", "StrokeProtocol", "StrokeTracker", "StrokeRecording", "StrokeReplay", "InputCore",
                "GestureRecognizer", "Evdev",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "StrokeHTTPTests",
            dependencies: [
                "StrokeHTTP", "StrokeDaemon", "StrokeClient", "StrokeProtocol", "StrokeRecording", "StrokeReplay", "StrokeTracker",
                "StrokeRender",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
