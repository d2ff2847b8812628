// swift-tools-version: 6.0
//
// Four Objective-C promise designs, reimplemented side by side behind one shared protocol.
// The folders read as the architecture: `Implementations/` holds the shared protocol, one folder per
// design and the registry of designs; `ConformanceTests/` holds the Promises/A+ suite (written once)
// and the per-design tests; `Benchmarks/` holds the `compare` tool.
//
// Only the benchmark tool depends on packages (argument parsing, SwiftNIO and OpenCombine as peers,
// an allocation counter); the implementation modules depend on the toolchain alone.
import PackageDescription

/// Every target is compiled in the Swift 6 language mode (complete strict concurrency).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "PromiseDesigns",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PromiseInterface", targets: ["PromiseInterface"]),
        .library(name: "FBLPromises", targets: ["FBLPromises"]),
        .library(name: "AYPromises", targets: ["AYPromises"]),
        .library(name: "QXPromises", targets: ["QXPromises"]),
        .library(name: "QNTasks", targets: ["QNTasks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // `swift package generate-documentation` (the modules' DocC catalogs); no target uses it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: Implementations (toolchain only: Foundation, Dispatch, Synchronization)
        // The types every design's public API uses (PromiseValue, PromiseState, Thenable); each
        // design re-exports them, so that `import AYPromises` alone can name them.
        .target(
            name: "SharedPromiseTypes",
            path: "Implementations/SharedPromiseTypes",
            swiftSettings: strictSettings
        ),
        .target(
            name: "PromiseInterface",
            dependencies: ["SharedPromiseTypes"],
            path: "Implementations/PromiseInterface",
            swiftSettings: strictSettings
        ),
        .target(
            name: "FBLPromises",
            dependencies: ["SharedPromiseTypes", "PromiseInterface"],
            path: "Implementations/FBLPromises",
            swiftSettings: strictSettings
        ),
        .target(
            name: "AYPromises",
            dependencies: ["SharedPromiseTypes", "PromiseInterface"],
            path: "Implementations/AYPromises",
            swiftSettings: strictSettings
        ),
        .target(
            name: "QXPromises",
            dependencies: ["SharedPromiseTypes", "PromiseInterface"],
            path: "Implementations/QXPromises",
            swiftSettings: strictSettings
        ),
        .target(
            name: "QNTasks",
            dependencies: ["SharedPromiseTypes", "PromiseInterface"],
            path: "Implementations/QNTasks",
            swiftSettings: strictSettings
        ),
        .target(
            name: "DesignRegistry",
            dependencies: ["PromiseInterface", "FBLPromises", "AYPromises", "QXPromises", "QNTasks"],
            path: "Implementations/DesignRegistry",
            swiftSettings: strictSettings
        ),

        // MARK: Conformance
        .target(
            name: "APlusSuite",
            dependencies: ["PromiseInterface"],
            path: "ConformanceTests/APlusSuite",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "APlusConformanceTests",
            dependencies: ["APlusSuite", "DesignRegistry", "PromiseInterface", "TestSupport"],
            path: "ConformanceTests/APlusConformanceTests",
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: ["PromiseInterface"],
            path: "ConformanceTests/TestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FBLPromisesTests",
            dependencies: ["FBLPromises", "PromiseInterface", "TestSupport"],
            path: "ConformanceTests/FBLPromisesTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AYPromisesTests",
            dependencies: ["AYPromises", "PromiseInterface", "TestSupport"],
            path: "ConformanceTests/AYPromisesTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "QXPromisesTests",
            dependencies: ["QXPromises", "PromiseInterface", "TestSupport"],
            path: "ConformanceTests/QXPromisesTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "QNTasksTests",
            dependencies: ["QNTasks", "PromiseInterface", "TestSupport"],
            path: "ConformanceTests/QNTasksTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ScenarioTests",
            dependencies: ["FBLPromises", "AYPromises", "QXPromises", "QNTasks", "PromiseInterface", "TestSupport"],
            path: "ConformanceTests/ScenarioTests",
            swiftSettings: strictSettings
        ),

        // Every code block of the README, the reports and the DocC articles, compiled and checked
        // against the text.
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["FBLPromises", "AYPromises", "QXPromises", "QNTasks", "PromiseInterface"],
            path: "ConformanceTests/DocumentationTests",
            swiftSettings: strictSettings
        ),

        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "DesignRegistry", "PromiseInterface", "TestSupport",
                "FBLPromises", "AYPromises", "QXPromises", "QNTasks",
            ],
            path: "ConformanceTests/ReliabilityTests",
            swiftSettings: strictSettings
        ),

        // MARK: Benchmarks
        // The statistics and the report writers, apart from the tool so that tests can check them.
        .target(
            name: "CompareKit",
            path: "Benchmarks/CompareKit",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "compare",
            dependencies: [
                "CompareKit", "DesignRegistry", "PromiseInterface", "APlusSuite",
                "FBLPromises", "AYPromises", "QXPromises", "QNTasks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ],
            path: "Benchmarks/compare",
            swiftSettings: strictSettings
        ),
        // Exact allocation counts per operation of each design, for `AllocationBudgetTests`; its own
        // process, since the malloc interposer replaces `malloc` for everything in it.
        .executableTarget(
            name: "AllocationCounter",
            dependencies: [
                "PromiseInterface", "FBLPromises", "AYPromises", "QXPromises", "QNTasks",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ],
            path: "Benchmarks/AllocationCounter",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AllocationBudgetTests",
            dependencies: ["TestSupport"],
            path: "ConformanceTests/AllocationBudgetTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CompareKitTests",
            dependencies: ["CompareKit", "DesignRegistry"],
            path: "Benchmarks/CompareKitTests",
            exclude: ["Golden"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
