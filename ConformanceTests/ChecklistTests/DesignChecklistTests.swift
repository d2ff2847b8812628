import DesignRegistry
import Foundation
import Testing

/// The checklist for adding a design (README, "Adding a design"), one test per step that the
/// compiler does not already enforce.
///
/// The compiler enforces the rest: a `Design` case needs its adapter (`Design.adapter`) and its
/// contender (`contender(for:)` in `compare`), both exhaustive switches; `CompareCommandTests`
/// checks that the contender is listed under the design's name, and the Promises/A+ suite runs
/// every registered design.
///
/// These tests read the package's own files: the steps are files and lines, and a missing one is
/// named in the failure.
@Suite("Adding a design: the checklist")
struct DesignChecklistTests {
    /// Folders under `Implementations/` that are not designs.
    static let infrastructure: Set<String> = [
        "SharedPromiseTypes", "PromiseRuntime", "DesignRegistry",
    ]

    /// The package root, found from this file.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ChecklistTests
        .deletingLastPathComponent()  // ConformanceTests
        .deletingLastPathComponent()  // the package root

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func subfolders(of path: String) throws -> Set<String> {
        let folder = root.appendingPathComponent(path)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return Set(
            names.filter { name in
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory)
                return exists && isDirectory.boolValue
            })
    }

    static func fileExists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    // MARK: Step 1: the module

    @Test("1. every folder under Implementations/ is a registered design, and every design has its folder")
    func foldersAreRegistered() throws {
        let designFolders = try Self.subfolders(of: "Implementations").subtracting(Self.infrastructure)
        let registered = Set(Design.allCases.map(\.moduleName))
        #expect(!designFolders.isEmpty)
        #expect(
            designFolders == registered,
            "a folder without a Design case: \(designFolders.subtracting(registered).sorted()); a Design case without a folder: \(registered.subtracting(designFolders).sorted())"
        )
    }

    /// The module names in `Package.swift`'s `designModules`, which makes each design's target,
    /// product and test target.
    static func packageDesignModules() throws -> [String] {
        let manifest = try read("Package.swift")
        let list = try #require(
            manifest.range(of: #"let designModules = \[[^\]]*\]"#, options: .regularExpression).map {
                manifest[$0]
            },
            "Package.swift has no `let designModules = [...]`")
        return list.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test("1. Package.swift's designModules lists every design, and nothing else", arguments: Design.allCases)
    func packageListsTheDesign(_ design: Design) throws {
        let modules = try Self.packageDesignModules()
        #expect(modules.contains(design.moduleName), "add \"\(design.moduleName)\" to designModules in Package.swift")
        #expect(Set(modules) == Set(Design.allCases.map(\.moduleName)), "designModules: \(modules)")
    }

    @Test("1. the design has its own tests in ConformanceTests/<module>Tests", arguments: Design.allCases)
    func designHasItsOwnTests(_ design: Design) throws {
        let folder = "ConformanceTests/\(design.moduleName)Tests"
        let files =
            (try? FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent(folder).path)) ?? []
        #expect(files.contains { $0.hasSuffix(".swift") }, "no tests in \(folder)")
    }

    // MARK: Step 2: the registry entry and the adapter

    @Test("2. the design's adapter to the Promises/A+ suite is in DesignRegistry/Adapters", arguments: Design.allCases)
    func adapterFile(_ design: Design) throws {
        // `adapter` names the adapter type; its file is named after it and declares it.
        let typeName = String(describing: design.adapter)
        #expect(typeName == "\(design.rawValue)Adapter", "name the adapter \(design.rawValue)Adapter")
        let path = "Implementations/DesignRegistry/Adapters/\(typeName).swift"
        let adapter = try #require(try? Self.read(path), "no \(path)")
        #expect(
            adapter.contains("public enum \(typeName): RegisteredAdapter"),
            "\(path) does not declare `public enum \(typeName): RegisteredAdapter`")
    }

    @Test("2. the design's own module knows nothing of the suite or its adapter", arguments: Design.allCases)
    func adapterStaysOutOfTheDesign(_ design: Design) throws {
        let folder = Self.root.appendingPathComponent("Implementations/\(design.moduleName)")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(!source.contains("import APlusSuite"), "\(design.moduleName)/\(file) imports APlusSuite")
            #expect(!source.contains("APlusAdapter"), "\(design.moduleName)/\(file) names APlusAdapter")
        }
    }

    // MARK: Step 3: the contender

    @Test("3. the design has a contender in Benchmarks/compare/Contenders", arguments: Design.allCases)
    func contenderFile(_ design: Design) throws {
        let path = "Benchmarks/compare/Contenders/\(design.rawValue).swift"
        #expect(Self.fileExists(path), "no \(path)")
    }

    /// Whether `line`'s code (comments aside) names `name` as a word.
    static func codeNames(_ line: Substring, _ name: String) -> Bool {
        var code = line.trimmingCharacters(in: .whitespaces)
        if code.hasPrefix("//") { return false }
        if let comment = code.range(of: " //") { code = String(code[..<comment.lowerBound]) }
        return code.range(of: "\\b\(name)\\b", options: .regularExpression) != nil
    }

    @Test(
        "3. the contender is all: CompareKit, the reports' generic layer, names no design",
        arguments: Design.allCases)
    func compareKitNamesNoDesign(_ design: Design) throws {
        let folder = Self.root.appendingPathComponent("Benchmarks/CompareKit")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where Self.codeNames(line, design.rawValue) {
                Issue.record(
                    "Benchmarks/CompareKit/\(file):\(number + 1) names \(design.rawValue); take it from `Design`")
            }
        }
    }

    // MARK: Step 4: the scenarios

    /// The struct of each `@Suite("Scenario N: ...")` in the shared files of ScenarioTests.
    static func scenarioSuites() throws -> [String] {
        let folder = Self.root.appendingPathComponent("ConformanceTests/ScenarioTests")
        var suites: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        where file.hasSuffix(".swift") {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for part in source.components(separatedBy: "@Suite(\"Scenario ").dropFirst() {
                // `@Suite("Scenario 2: ...")\nstruct SeriesTests {`
                guard let declaration = part.range(of: "struct ") else { continue }
                suites.append(String(part[declaration.upperBound...].prefix { $0.isLetter || $0.isNumber }))
            }
        }
        return suites
    }

    /// The display names of the tests in `source`'s `extension <suite> {` block.
    static func tests(extending suite: String, in source: String) -> [String] {
        source.components(separatedBy: "\nextension \(suite) {").dropFirst().flatMap { part in
            // The block ends where the next top-level declaration starts.
            let block = part.components(separatedBy: "\n}").first ?? ""
            return block.components(separatedBy: "@Test(").dropFirst().map { test in
                // `@Test("FBL: ...")` or `@Test(\n "FBL: ...")`
                String(test.drop { $0 != "\"" }.dropFirst().prefix { $0 != "\"" })
            }
        }
    }

    @Test(
        "4. the design's folder in ScenarioTests extends every scenario suite with a test \"<design>: ...\"",
        arguments: Design.allCases)
    func scenarioCoverage(_ design: Design) throws {
        let suites = try Self.scenarioSuites()
        #expect(suites.count >= 7, "the seven scenario suites: found \(suites)")
        let folder = "ConformanceTests/ScenarioTests/\(design.rawValue)"
        let scenarios = try #require(
            try? Self.read("\(folder)/\(design.rawValue)Scenarios.swift"),
            "no \(folder)/\(design.rawValue)Scenarios.swift")
        for suite in suites {
            #expect(
                Self.tests(extending: suite, in: scenarios).contains { $0.hasPrefix("\(design.rawValue): ") },
                "\(design.rawValue)Scenarios.swift has no `extension \(suite)` with a test named \"\(design.rawValue): ...\""
            )
        }
        let blockResults = try #require(
            try? Self.read("\(folder)/\(design.rawValue)BlockResultTests.swift"),
            "no \(folder)/\(design.rawValue)BlockResultTests.swift")
        #expect(
            blockResults.contains("@Suite(\"Block results: \(design.rawValue)"),
            "\(design.rawValue)BlockResultTests.swift has no suite \"Block results: \(design.rawValue)\"")
    }

    // MARK: Step 5: the cost budgets

    @Test(
        "5. the design's operations are in CostOperations/<Name>Operations.swift, each with its budgets",
        arguments: Design.allCases)
    func costBudgets(_ design: Design) throws {
        let path = "ConformanceTests/Costs/CostOperations/\(design.rawValue)Operations.swift"
        let operations = try #require(try? Self.read(path), "no \(path)")
        let measurements = operations.components(separatedBy: "Measurement(").dropFirst()
        #expect(!measurements.isEmpty, "\(path) has no operation")
        for measurement in measurements {
            #expect(measurement.contains("design: \"\(design.rawValue)\""), "\(path): an operation of another design")
            // Every design's operation is budgeted in allocations (exact) and in instructions.
            #expect(
                measurement.contains("budget: Budget(allocations: ") && measurement.contains("instructions: "),
                "\(path): an operation without its allocation and instruction budgets")
        }
        let registry = try Self.read("ConformanceTests/Costs/CostOperations/CostOperations.swift")
        #expect(registry.contains("\(design.rawValue)Operations.all"), "CostOperations.all leaves out \(design)")
    }

    // MARK: Step 6: the documentation

    @Test("6. the design has its report, and its module a README that lists its files", arguments: Design.allCases)
    func documentation(_ design: Design) throws {
        let report = "Reports/\(design.rawValue.lowercased()).md"
        #expect(Self.fileExists(report), "no \(report)")
        // The module's page, which the README's table links: every Swift file of the module in it.
        let page = "Implementations/\(design.moduleName)/README.md"
        let text = (try? Self.read(page)) ?? ""
        #expect(!text.isEmpty, "no \(page)")
        let files =
            (try FileManager.default.contentsOfDirectory(
                atPath: Self.root.appendingPathComponent("Implementations/\(design.moduleName)").path))
            .filter { $0.hasSuffix(".swift") && $0 != "Exports.swift" }
        for file in files {
            #expect(text.contains("(\(file))"), "\(page) does not link \(file)")
        }
    }

    /// The shared modules, and the Promises/A+ suite's product modules, which outside libraries use.
    @Test(
        "the shared modules and the suite's products name no design",
        arguments: [
            "Implementations/SharedPromiseTypes", "Implementations/PromiseRuntime",
            "ConformanceTests/APlusSuite", "ConformanceTests/APlusSuiteTesting", "ConformanceTests/APlusSuiteXCTest",
        ])
    func sharedModulesNameNoDesign(_ module: String) throws {
        let folder = Self.root.appendingPathComponent(module)
        let files = try #require(FileManager.default.subpaths(atPath: folder.path))
            .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".md") }
        #expect(!files.isEmpty)
        // A design's short name, alone or starting a type name ("FBL", "FBL's", "QNAsyncTask",
        // "AYPromise.then"), but not inside a word ("ALWAYS").
        let names = Design.allCases.map(\.rawValue).joined(separator: "|")
        let designName = try Regex("(?:^|[^A-Za-z])(\(names))(?![a-z])")
        var naming: [String] = []
        for file in files {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(designName) {
                naming.append("\(module)/\(file):\(number + 1): \(line)")
            }
        }
        #expect(naming.isEmpty, "lines that name a design: \(naming)")
    }

    @Test("names are unique")
    func uniqueNames() {
        #expect(Set(Design.allCases.map(\.rawValue)).count == Design.allCases.count)
        #expect(Set(Design.allCases.map(\.moduleName)).count == Design.allCases.count)
    }
}
