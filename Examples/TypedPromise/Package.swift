// swift-tools-version: 6.2
//
// An outside package that runs the Promises/A+ suite (this repository's `APlusSuite` product)
// against a typed promise library of its own: `TypedPromise`, written for this example in the shape
// most Swift promise libraries have (`Promise<T>`, a resolver, a one-callback `then`, `map` and
// `recover`, no thenables). CI runs it with `swift test --package-path Examples/TypedPromise`.
//
// It depends on the repository by path; the name makes the package's identity independent of the
// folder a clone is in. A package elsewhere depends on it by URL instead, and names the products'
// package by the URL's last component.
import PackageDescription

let package = Package(
    name: "TypedPromise",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(name: "PromiseDesigns", path: "../..")
    ],
    targets: [
        // The library under test: depends on the toolchain only.
        .target(name: "TypedPromise"),
        // Its Promises/A+ run: the adapter and one test.
        .testTarget(
            name: "TypedPromiseTests",
            dependencies: [
                "TypedPromise",
                .product(name: "APlusSuite", package: "PromiseDesigns"),
                .product(name: "APlusSuiteTesting", package: "PromiseDesigns"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
