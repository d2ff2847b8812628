import Foundation
import TestSupport
import Testing

/// The package's folders are its architecture: `Implementations/` (the product) depends on nothing
/// of the other two, `ConformanceTests/` (the suite, the registry, the tests) only on
/// `Implementations/`, and `Benchmarks/` (the lab) may depend on both. Only the lab depends on
/// packages. The targets and their edges are read from the manifest as SwiftPM evaluates it
/// (`swift package dump-package`), so an edge built by a loop counts as one written out.
@Suite(
    "The package: dependencies run one way",
    .disabled(if: Sanitizer.isActive, "reads the manifest only; the plain run checks it"))
struct DependencyDirectionTests {
    /// The folders, each allowed to depend on itself and the ones after it.
    static let layers = ["Benchmarks", "ConformanceTests", "Implementations"]

    struct Target {
        let name: String
        let folder: String
        /// Targets of this package it depends on.
        let targets: [String]
        /// Products of other packages it depends on, as `package/product`.
        let products: [String]
    }

    /// The package's targets, read from `swift package dump-package` (in a scratch folder of its
    /// own, so that it never waits for the build's lock), run off the cooperative pool: waiting on
    /// a process there would hold one of its threads (two on CI) for as long as the process runs.
    static func targets() async throws -> [Target] {
        let dump = try await offPool("swift package dump-package", timeout: longTimeout(.seconds(120))) {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: scratch) }
            return try ToolRun.command(
                "swift",
                ["package", "--package-path", PackageFiles.root.path, "--scratch-path", scratch.path, "dump-package"])
        }
        try #require(dump.status == 0, "swift package dump-package failed")
        let data = dump.output
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = try #require(manifest["targets"] as? [[String: Any]])
        return try entries.map { entry in
            let name = try #require(entry["name"] as? String)
            let path = try #require(entry["path"] as? String, "\(name) has no explicit path")
            var targets: [String] = []
            var products: [String] = []
            for dependency in entry["dependencies"] as? [[String: Any]] ?? [] {
                if let byName = (dependency["byName"] ?? dependency["target"]) as? [Any],
                    let target = byName[0] as? String
                {
                    targets.append(target)
                } else if let product = dependency["product"] as? [Any], let productName = product[0] as? String {
                    products.append("\(product[1] as? String ?? "?")/\(productName)")
                }
            }
            return Target(
                name: name, folder: String(path.split(separator: "/")[0]), targets: targets, products: products)
        }
    }

    /// The edges that run against the layers, and the package products used outside the lab, as
    /// the rule breaks they are.
    static func breaks(in targets: [Target]) -> [RuleBreak] {
        let folderOf = Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0.folder) })
        var found: [RuleBreak] = []
        for target in targets {
            guard let layer = layers.firstIndex(of: target.folder) else {
                found.append(
                    RuleBreak(
                        file: "Package.swift",
                        problem: "\(target.name) lives in \(target.folder)/, not one of \(layers)",
                        fix: "move it into the folder of its role", rule: "dependencies"))
                continue
            }
            for dependency in target.targets {
                guard let folder = folderOf[dependency], let other = layers.firstIndex(of: folder) else { continue }
                if other < layer {
                    found.append(
                        RuleBreak(
                            file: "Package.swift",
                            problem:
                                "\(target.name) (\(target.folder)/) depends on \(dependency) (\(folder)/), against the direction \(layers.joined(separator: " → "))",
                            fix: "move \(dependency) down to \(target.folder)/ or lower, or move \(target.name) up",
                            rule: "dependencies"))
                }
            }
            if target.folder != "Benchmarks" {
                for product in target.products {
                    found.append(
                        RuleBreak(
                            file: "Package.swift",
                            problem: "\(target.name) (\(target.folder)/) depends on the package product \(product)",
                            fix:
                                "only the lab (Benchmarks/) uses packages: write it with the toolchain, or move the target",
                            rule: "dependencies"))
                }
            }
        }
        return found
    }

    @Test("every target lives in one of the three folders, and depends only on its folder and the ones below")
    func oneWay() async throws {
        let targets = try await Self.targets()
        #expect(targets.count > 20, "read \(targets.count) targets")
        for layer in Self.layers {
            #expect(targets.contains { $0.folder == layer }, "no target in \(layer)/")
        }
        let found = Self.breaks(in: targets)
        #expect(found.isEmpty, Comment(rawValue: found.map(\.description).joined(separator: "\n")))
    }

    @Test("an edge against the direction is found and named")
    func reversedEdgeFound() {
        let targets = [
            Target(name: "Design", folder: "Implementations", targets: ["Suite"], products: []),
            Target(name: "Suite", folder: "ConformanceTests", targets: ["Design", "Lab"], products: []),
            Target(name: "Lab", folder: "Benchmarks", targets: ["Suite", "Design"], products: ["swift-nio/NIOCore"]),
            Target(name: "Helper", folder: "ConformanceTests", targets: [], products: ["swift-nio/NIOCore"]),
        ]
        let problems = Self.breaks(in: targets).map(\.problem)
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("Design (Implementations/) depends on Suite (ConformanceTests/)") })
        #expect(problems.contains { $0.hasPrefix("Suite (ConformanceTests/) depends on Lab (Benchmarks/)") })
        #expect(
            problems.contains {
                $0.contains("Helper (ConformanceTests/) depends on the package product swift-nio/NIOCore")
            })
    }
}
