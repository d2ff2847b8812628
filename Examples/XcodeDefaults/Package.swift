// swift-tools-version: 6.2
//
// The README's and the DocC articles' snippets for the four designs, compiled and run with the
// settings of a new Xcode 26 app target: default main-actor isolation and the "approachable
// concurrency" features. CI runs it with `swift test --package-path Examples/XcodeDefaults`.
// Each snippet is the documentation's text (`DocumentationTests` checks that each is identical
// to the block it shows and to its twin in the root package's snippet files).
import PackageDescription

/// What Xcode 26 sets for a new app target.
let xcodeDefaults: [SwiftSetting] = [
    .defaultIsolation(MainActor.self),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
    name: "XcodeDefaults",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(name: "PromiseDesigns", path: "../..")
    ],
    targets: [
        .target(
            name: "XcodeDefaults",
            dependencies: [
                .product(name: "FBLPromises", package: "PromiseDesigns"),
                .product(name: "AYPromises", package: "PromiseDesigns"),
                .product(name: "QXPromises", package: "PromiseDesigns"),
                .product(name: "QNTasks", package: "PromiseDesigns"),
            ],
            swiftSettings: xcodeDefaults
        ),
        .testTarget(
            name: "XcodeDefaultsTests",
            dependencies: ["XcodeDefaults"],
            swiftSettings: xcodeDefaults
        ),
    ],
    swiftLanguageModes: [.v6]
)
