// swift-tools-version: 6.2
//
// TinyPromise's costs in ordo-one/benchmark (package-benchmark), the harness Swift library authors
// use: its standard operations through the `PromiseCostsBenchmark` product, with allocation
// thresholds kept per Swift version as swift-nio keeps them (`Thresholds/<version>/`). A package
// of its own, as swift-nio's `Benchmarks/` is, so that the examples' `swift test` neither fetches
// nor builds the harness.
//
// From this folder:
//
//     swift package benchmark                                  # run, print the table
//     swift package benchmark thresholds check --path Thresholds/6.3 --metric mallocCountTotal
//     swift package --allow-writing-to-package-directory benchmark thresholds update \
//         --path Thresholds/6.3 --metric mallocCountTotal      # after an intended change
import PackageDescription

let package = Package(
    name: "TinyPromiseBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // The cost product with the harness: the `PackageBenchmark` trait turns it on.
        .package(name: "PromiseDesigns", path: "../../..", traits: ["PackageBenchmark"]),
        .package(name: "Examples", path: "../.."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "TinyPromiseBenchmarks",
            dependencies: [
                .product(name: "TinyPromiseCosts", package: "Examples"),
                .product(name: "PromiseCostsBenchmark", package: "PromiseDesigns"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/TinyPromiseBenchmarks",
            swiftSettings: [.treatAllWarnings(as: .error)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
