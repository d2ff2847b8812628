// swift-tools-version: 6.2
//
// Promise designs reimplemented side by side behind one shared protocol: the Promises/A+ suite's
// adapter protocol, which outside libraries use too. Each top-level folder has one role, and the
// targets in it depend only on their own folder and the folders after it in this list
// (`DependencyDirectionTests` fails on an edge the other way):
//
// - `Benchmarks/`, the lab: the `compare` tool, its kit and policy, the cost counters and the
//   operations they count, the floor prototypes, the claim checks, and their tests;
// - `ConformanceTests/`: the Promises/A+ suite (a product), the registry of designs with each
//   design's adapter to the suite, what the tests share, and the tests;
// - `Implementations/`: the product code, the designs and what they share; toolchain only.
//
// Adding a design: add its module name to `designModules` below and its case to
// `ConformanceTests/DesignRegistry/Design.swift`; CONTRIBUTING's checklist has the new folders
// and files, and `ChecklistTests` fails until each one is there.
import PackageDescription

/// Every target is compiled in the Swift 6 language mode (complete strict concurrency), and a
/// warning is an error: `swift test` and every build fail on one.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatAllWarnings(as: .error),
]

/// Every design's module. Each one is `Implementations/<name>/`, tested by
/// `ConformanceTests/<name>Tests/`, and depends on the toolchain and the two shared modules only.
let designModules = ["FBLPromises", "AYPromises", "QXPromises", "QNTasks", "BatchedPromises"]

/// The designs as dependencies of the targets that drive all of them.
let allDesigns: [Target.Dependency] = designModules.map { .target(name: $0) }

// MARK: Implementations/: the product (toolchain only: Foundation, Dispatch, Synchronization)

let implementationTargets: [Target] =
    [
        // The types every design's public API uses (PromiseValue, PromiseState, Thenable); each
        // design re-exports them, so that `import AYPromises` alone can name them.
        .target(
            name: "SharedPromiseTypes",
            path: "Implementations/SharedPromiseTypes",
            swiftSettings: strictSettings
        ),
        // What the designs share at run time: the lock, the first-call gate, the adoption-cycle
        // walk, the pending-promise leak check, the inline-first list, the iterative release.
        // Nothing in it names a design; no design re-exports it.
        .target(
            name: "PromiseRuntime",
            dependencies: ["SharedPromiseTypes"],
            path: "Implementations/PromiseRuntime",
            swiftSettings: strictSettings
        ),
    ]
    + designModules.map { design in
        .target(
            name: design,
            dependencies: ["SharedPromiseTypes", "PromiseRuntime"],
            path: "Implementations/\(design)",
            // The module's page on the repository: its operators, one file each.
            exclude: ["README.md"],
            swiftSettings: strictSettings
        )
    }

// MARK: ConformanceTests/: the Promises/A+ suite, the registry of designs, and the tests

let conformanceTargets: [Target] =
    [
        // The Promises/A+ 1.1 suite, written once, generic over an adapter (`APlusAdapter`) that
        // any Swift promise library can write: a library product, with a runner for each test
        // framework. It needs no module that names a design.
        .target(
            name: "APlusSuite",
            dependencies: ["PromiseRuntime"],
            path: "ConformanceTests/APlusSuite",
            swiftSettings: strictSettings
        ),
        .target(
            name: "APlusSuiteTesting",
            dependencies: ["APlusSuite"],
            path: "ConformanceTests/APlusSuiteTesting",
            swiftSettings: strictSettings
        ),
        .target(
            name: "APlusSuiteXCTest",
            dependencies: ["APlusSuite"],
            path: "ConformanceTests/APlusSuiteXCTest",
            swiftSettings: strictSettings
        ),
        // `Design`, the one list of designs that the tests and the lab iterate, and each design's
        // adapter to the Promises/A+ suite (`Adapters/`), which also states the design's facts
        // (module, summary, features). No design depends on it.
        .target(
            name: "DesignRegistry",
            dependencies: ["APlusSuite", "PromiseRuntime", "SharedPromiseTypes"] + allDesigns,
            path: "ConformanceTests/DesignRegistry",
            swiftSettings: strictSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: ["SharedPromiseTypes", "PromiseRuntime"],
            path: "ConformanceTests/TestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "APlusConformanceTests",
            dependencies: [
                "APlusSuite", "APlusSuiteTesting", "APlusSuiteXCTest", "DesignRegistry",
                "PromiseRuntime", "TestSupport",
            ],
            path: "ConformanceTests/APlusConformanceTests",
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        // The checklist for adding a design, as tests: each fails while its step is missing; and
        // the package's own shape (dependency direction, platform availability).
        .testTarget(
            name: "ChecklistTests",
            dependencies: ["DesignRegistry", "TestSupport"],
            path: "ConformanceTests/ChecklistTests",
            swiftSettings: strictSettings
        ),
        // The same application scenarios written in every design's style.
        .testTarget(
            name: "ScenarioTests",
            dependencies: ["DesignRegistry", "PromiseRuntime", "TestSupport"] + allDesigns,
            path: "ConformanceTests/ScenarioTests",
            swiftSettings: strictSettings
        ),
        // Every code block of the README, the reports and the DocC articles, compiled and checked
        // against the text; every link followed; the project's facts checked.
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["DesignRegistry", "PromiseRuntime", "TestSupport"] + allDesigns,
            path: "ConformanceTests/DocumentationTests",
            swiftSettings: strictSettings
        ),
        // The resident size before, at the peak of and after a large piece of promise work that is
        // then dropped, per design: a process of its own per run, which `ReliabilityTests` starts.
        .executableTarget(
            name: "MemoryAfterDrop",
            dependencies: allDesigns,
            path: "ConformanceTests/MemoryAfterDrop",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: ["DesignRegistry", "PromiseRuntime", "TestSupport"] + allDesigns,
            path: "ConformanceTests/ReliabilityTests",
            swiftSettings: strictSettings
        ),
    ]
    // Each design's own tests: one file per operator, and its adapter's.
    + designModules.map { design in
        .testTarget(
            name: "\(design)Tests",
            dependencies: [
                .target(name: design), "DesignRegistry", "PromiseRuntime", "TestSupport",
            ],
            path: "ConformanceTests/\(design)Tests",
            swiftSettings: strictSettings
        )
    }

// MARK: Benchmarks/: the lab (the only targets that depend on packages)

let benchmarkTargets: [Target] = [
    // The statistics and the report writers, apart from the tool so that tests can check them.
    // Names no design.
    .target(
        name: "CompareKit",
        path: "Benchmarks/CompareKit",
        swiftSettings: strictSettings
    ),
    // The project's policy over the reports: the designs' targets, which recorded runs speak for
    // which designs, the README's generated table, the review's numbers.
    .target(
        name: "ReportPolicy",
        dependencies: ["APlusSuite", "CompareKit", "CostOperations", "DesignRegistry"],
        path: "Benchmarks/ReportPolicy",
        swiftSettings: strictSettings
    ),
    .executableTarget(
        name: "compare",
        dependencies: [
            "CompareKit", "DesignRegistry", "PromiseRuntime", "ReportPolicy", "SharedPromiseTypes",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "OpenCombine", package: "OpenCombine"),
            .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            "AllocationCounting", "PromiseCosts",
        ] + allDesigns,
        path: "Benchmarks/compare",
        swiftSettings: strictSettings
    ),
    .testTarget(
        name: "CompareKitTests",
        dependencies: ["CompareKit", "DesignRegistry", "ReportPolicy", "TestSupport"],
        path: "Benchmarks/CompareKitTests",
        exclude: ["Golden"],
        swiftSettings: strictSettings
    ),
    // Every claim the prose makes about time or memory, checked against every recorded run.
    .testTarget(
        name: "ClaimTests",
        dependencies: ["CompareKit", "DesignRegistry", "ReportPolicy", "TestSupport"],
        path: "Benchmarks/ClaimTests",
        swiftSettings: strictSettings
    ),

    // The exact costs: the cost product (its operations, two runners and a test runner), the
    // designs' operations, counted by two tools built on it, checked by tests and CI.

    // The cost method for any promise library, no design named: a library's adapter, the five
    // standard operations, budgets, the instruction runner under callgrind.
    .target(
        name: "PromiseCosts",
        dependencies: ["CallgrindDump", .product(name: "ArgumentParser", package: "swift-argument-parser")],
        path: "Benchmarks/PromiseCosts",
        swiftSettings: strictSettings
    ),
    // The allocation runner: links the counter, which replaces `malloc` for the whole process, so
    // only an executable of its own depends on it.
    .target(
        name: "PromiseCostsAllocations",
        dependencies: ["AllocationCounting", "PromiseCosts"],
        path: "Benchmarks/PromiseCostsAllocations",
        swiftSettings: strictSettings
    ),
    // The cost method in ordo-one/benchmark, the harness Swift authors use: the operations as its
    // benchmarks. Its dependency on the harness is behind the `PackageBenchmark` trait, so that
    // only a package that turns it on fetches the harness; without it the module is empty.
    .target(
        name: "PromiseCostsBenchmark",
        dependencies: [
            "PromiseCosts",
            .product(name: "Benchmark", package: "benchmark", condition: .when(traits: ["PackageBenchmark"])),
        ],
        path: "Benchmarks/PromiseCostsBenchmark",
        swiftSettings: strictSettings
    ),
    // The allocation budgets in `swift test`: runs the allocation tool, records an issue per count
    // off budget.
    .target(
        name: "PromiseCostsTesting",
        dependencies: ["PromiseCosts"],
        path: "Benchmarks/PromiseCostsTesting",
        swiftSettings: strictSettings
    ),

    // Counts heap allocations for the two tools that need it, by replacing the C allocator's entry
    // points in their process (glibc only; elsewhere it counts nothing and says so).
    .target(
        name: "AllocationCounting",
        path: "Benchmarks/Costs/AllocationCounting",
        cSettings: [.treatAllWarnings(as: .error)]
    ),
    // Stripped prototypes of two designs' contracts (the floors, Reports/performance.md), which the
    // cost counters count beside the designs.
    .target(
        name: "FloorPrototypes",
        dependencies: ["PromiseRuntime"],
        path: "Benchmarks/Costs/FloorPrototypes",
        swiftSettings: strictSettings
    ),
    // Each design's basic operations with their budgets, which the two cost counters run.
    .target(
        name: "CostOperations",
        dependencies: ["CompareKit", "DesignRegistry", "FloorPrototypes", "PromiseCosts"] + allDesigns,
        path: "Benchmarks/Costs/CostOperations",
        swiftSettings: strictSettings
    ),
    // Exact allocation counts per operation of each design, for `AllocationBudgetTests`: the cost
    // product's allocation runner over the designs' operations, in a process of its own, since
    // its counter replaces `malloc` for everything in it.
    .executableTarget(
        name: "AllocationCounter",
        dependencies: ["CostOperations", "PromiseCostsAllocations"],
        path: "Benchmarks/Costs/AllocationCounter",
        swiftSettings: strictSettings
    ),
    // Asks callgrind to write the counts so far (valgrind's client request), so that one process
    // counts an operation at two sizes.
    .target(
        name: "CallgrindDump",
        path: "Benchmarks/Costs/CallgrindDump",
        cSettings: [.treatAllWarnings(as: .error)]
    ),
    // Instructions per operation of each design under valgrind's callgrind, checked against
    // budgets in CI (`swift run -c release InstructionCounter`): the cost product's instruction
    // runner over the designs' operations; no counter, so malloc is the C library's.
    .executableTarget(
        name: "InstructionCounter",
        dependencies: ["CostOperations", "PromiseCosts"],
        path: "Benchmarks/Costs/InstructionCounter",
        swiftSettings: strictSettings
    ),
    .testTarget(
        name: "AllocationBudgetTests",
        dependencies: ["CostOperations", "DesignRegistry", "PromiseCosts", "PromiseCostsTesting", "TestSupport"],
        path: "Benchmarks/AllocationBudgetTests",
        swiftSettings: strictSettings
    ),
]

let package = Package(
    name: "PromiseDesigns",
    // The versions that have `Synchronization` (Mutex, Atomic), which the designs and the suite use.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // The Promises/A+ suite for any Swift promise library, and its runners.
        .library(name: "APlusSuite", targets: ["APlusSuite"]),
        .library(name: "APlusSuiteTesting", targets: ["APlusSuiteTesting"]),
        .library(name: "APlusSuiteXCTest", targets: ["APlusSuiteXCTest"]),
        // The cost method for any Swift promise library: its operations and the instruction
        // runner, the allocation runner (an executable of its own links it), and its test runner.
        .library(name: "PromiseCosts", targets: ["PromiseCosts"]),
        .library(name: "PromiseCostsAllocations", targets: ["PromiseCostsAllocations"]),
        .library(name: "PromiseCostsTesting", targets: ["PromiseCostsTesting"]),
        // The same operations as ordo-one/benchmark benchmarks, with the `PackageBenchmark` trait.
        .library(name: "PromiseCostsBenchmark", targets: ["PromiseCostsBenchmark"]),
    ]
        + designModules.map { .library(name: $0, targets: [$0]) },
    traits: [
        .trait(
            name: "PackageBenchmark",
            description: "The PromiseCostsBenchmark product: the cost method as ordo-one/benchmark benchmarks"
        )
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Only with the `PackageBenchmark` trait (`PromiseCostsBenchmark`); its allocation counter
        // is the `MallocInterposer` trait (jemalloc, the other, is not on these machines).
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // `swift package generate-documentation` (the modules' DocC catalogs); no target uses it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: implementationTargets + conformanceTargets + benchmarkTargets,
    swiftLanguageModes: [.v6]
)
