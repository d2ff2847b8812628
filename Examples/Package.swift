// swift-tools-version: 6.2
//
// Three examples, in one package outside the root one that depends on it by path, as a user's
// package would (one package, so that CI builds the root package's modules for them once):
//
// - TinyPromise: a promise type written for the example, and the Promises/A+ suite (the
//   `APlusSuite` product) run against it through an adapter of its own, with both runners; and
//   its costs, through the cost products (`PromiseCosts`): its allocation budgets checked in
//   `swift test`, its instructions counted by `swift run -c release TinyPromiseInstructions`.
// - TypedPromise: a typed library of the common Swift shape (`Promise<T>`, a resolver that cannot
//   throw, one-callback `then` and `recover`, no thenables), and its exact result per clause.
// - XcodeDefaults: the README's and the DocC articles' snippets for the four designs, compiled and
//   run with the settings of a new Xcode 26 app target: default main-actor isolation and the
//   "approachable concurrency" features. Each snippet is the documentation's text
//   (`DocumentationTests` checks it against the block it shows and its twin in the root package).
//
// `swift test --package-path Examples` runs all three.
import Foundation
import PackageDescription

/// Swift 6 mode everywhere, and no warning goes unnoticed.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

/// What Xcode 26 sets for a new app target.
let xcodeDefaults: [SwiftSetting] =
    strict + [
        .defaultIsolation(MainActor.self),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
        .enableUpcomingFeature("InferIsolatedConformances"),
    ]

/// The designs' modules, as the root manifest lists them in `designModules` (read from it, so that
/// a new design needs no edit here).
let designModules: [String] = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    guard let manifest = try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8),
        let start = manifest.range(of: "let designModules = ["),
        let end = manifest.range(of: "]", range: start.upperBound..<manifest.endIndex)
    else { fatalError("the root Package.swift has no `let designModules = [...]`") }
    return manifest[start.upperBound..<end.lowerBound].split(separator: ",").map {
        $0.trimmingCharacters(in: CharacterSet(charactersIn: " \n\""))
    }
}()

let designs: [Target.Dependency] = designModules.map { .product(name: $0, package: "PromiseDesigns") }

let package = Package(
    name: "Examples",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // TinyPromise's operations and budgets, for its benchmarks in the harness Swift authors
        // use (`TinyPromise/Benchmarks`, a package of its own, as swift-nio keeps its benchmarks).
        .library(name: "TinyPromiseCosts", targets: ["TinyPromiseCosts"])
    ],
    dependencies: [
        .package(name: "PromiseDesigns", path: "..")
    ],
    targets: [
        // The library under test depends on the toolchain only; its tests are the adapter and one test.
        .target(name: "TinyPromise", path: "TinyPromise/Sources/TinyPromise", swiftSettings: strict),
        .testTarget(
            name: "TinyPromiseTests",
            dependencies: [
                "TinyPromise",
                .product(name: "APlusSuite", package: "PromiseDesigns"),
                .product(name: "APlusSuiteTesting", package: "PromiseDesigns"),
                .product(name: "APlusSuiteXCTest", package: "PromiseDesigns"),
            ],
            path: "TinyPromise/Tests/TinyPromiseTests",
            swiftSettings: strict
        ),
        // Its costs, through the cost products: the adapter and budgets, the allocation tool (a
        // process of its own, since it replaces `malloc`), the instruction tool, and the test
        // that checks the allocation budgets.
        .target(
            name: "TinyPromiseCosts",
            dependencies: ["TinyPromise", .product(name: "PromiseCosts", package: "PromiseDesigns")],
            path: "TinyPromise/Sources/TinyPromiseCosts", swiftSettings: strict),
        .executableTarget(
            name: "TinyPromiseAllocations",
            dependencies: ["TinyPromiseCosts", .product(name: "PromiseCostsAllocations", package: "PromiseDesigns")],
            path: "TinyPromise/Sources/TinyPromiseAllocations", swiftSettings: strict),
        .executableTarget(
            name: "TinyPromiseInstructions",
            dependencies: ["TinyPromiseCosts", .product(name: "PromiseCosts", package: "PromiseDesigns")],
            path: "TinyPromise/Sources/TinyPromiseInstructions", swiftSettings: strict),
        .testTarget(
            name: "TinyPromiseCostTests",
            dependencies: [
                "TinyPromiseAllocations", .product(name: "PromiseCostsTesting", package: "PromiseDesigns"),
            ],
            path: "TinyPromise/Tests/TinyPromiseCostTests", swiftSettings: strict),
        .target(name: "TypedPromise", path: "TypedPromise/Sources/TypedPromise", swiftSettings: strict),
        .testTarget(
            name: "TypedPromiseTests",
            dependencies: [
                "TypedPromise",
                .product(name: "APlusSuite", package: "PromiseDesigns"),
                .product(name: "APlusSuiteTesting", package: "PromiseDesigns"),
            ],
            path: "TypedPromise/Tests/TypedPromiseTests",
            swiftSettings: strict
        ),
        .target(
            name: "XcodeDefaults", dependencies: designs, path: "XcodeDefaults/Sources/XcodeDefaults",
            swiftSettings: xcodeDefaults),
        .testTarget(
            name: "XcodeDefaultsTests",
            dependencies: ["XcodeDefaults"],
            path: "XcodeDefaults/Tests/XcodeDefaultsTests",
            swiftSettings: xcodeDefaults
        ),
    ],
    swiftLanguageModes: [.v6]
)
