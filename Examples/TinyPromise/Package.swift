// swift-tools-version: 6.2
//
// An outside package that runs the Promises/A+ suite (this repository's `APlusSuite` product)
// against a promise type of its own: `TinyPromise`, written for this example. CI runs it with
// `swift test --package-path Examples/TinyPromise`.
//
// It depends on the repository by path; the name makes the package's identity independent of the
// folder a clone is in. A package elsewhere depends on it by URL instead, and names the products'
// package by the URL's last component. SwiftPM resolves and builds only what the named products
// need: the suite's modules and the two small ones they use (PromiseRuntime, SharedPromiseTypes),
// no other package.
import PackageDescription

let package = Package(
    name: "TinyPromise",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(name: "PromiseDesigns", path: "../..")
    ],
    targets: [
        // The library under test: depends on the toolchain only.
        .target(name: "TinyPromise"),
        // Its Promises/A+ run: the adapter and one test.
        .testTarget(
            name: "TinyPromiseTests",
            dependencies: [
                "TinyPromise",
                .product(name: "APlusSuite", package: "PromiseDesigns"),
                .product(name: "APlusSuiteTesting", package: "PromiseDesigns"),
                .product(name: "APlusSuiteXCTest", package: "PromiseDesigns"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
