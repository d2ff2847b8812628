import Foundation
import TestSupport
import Testing

/// The libraries must build on the Apple platforms `Package.swift` declares, which no machine of
/// this project can compile for. What can be checked here: the Linux toolchain's module interfaces
/// of the standard library, `_Concurrency`, `Synchronization`, `_StringProcessing`, `Observation`
/// and `Runtime` carry each declaration's Apple availability. A name the libraries use whose every
/// declaration there needs a newer system than the declared floor is an error on that system,
/// unless the use sits in an `if #available` block or an `@available` declaration.
///
/// The check reads names, not resolved references: it cannot tell two declarations of one name
/// apart, so a name counts only if *every* declaration of it is too new, and a name the project
/// declares itself is never counted. Dispatch and Foundation are binary modules on Linux, without
/// Apple availability, and are not checked (README, "Platforms").
@Suite("Platforms: nothing the libraries use needs a newer Apple system than Package.swift declares")
struct PlatformAvailabilityTests {
    /// The sources built for users: the designs, the shared modules, the suite's and the cost
    /// products, and the example packages. `#if canImport(Darwin)` branches are read too, though Linux never
    /// compiles them.
    static let libraryFolders = [
        "Implementations", "ConformanceTests/APlusSuite", "ConformanceTests/APlusSuiteTesting",
        "ConformanceTests/APlusSuiteXCTest", "Benchmarks/PromiseCosts", "Benchmarks/PromiseCostsAllocations",
        "Benchmarks/PromiseCostsTesting", "Examples",
    ]

    /// The toolchain modules whose interfaces carry Apple availability.
    static let checkedModules = [
        "Swift", "_Concurrency", "Synchronization", "_StringProcessing", "Observation", "Runtime",
    ]

    /// Toolchain modules the libraries import that ship with the developer tools, not the system:
    /// a name one of them declares is taken to mean theirs (Swift Testing's `SourceLocation`, not
    /// the standard library's).
    static let toolModules = ["Testing"]

    @Test("every name the libraries use is available on the declared platforms")
    func libraryNamesAreAvailable() async throws {
        let floor = try Self.declaredPlatforms()
        #expect(floor.keys.sorted() == ["iOS", "macOS", "tvOS", "visionOS", "watchOS"], "platforms: \(floor)")
        // Off the cooperative pool: reading the interfaces and the sources takes seconds, and would
        // hold one of the pool's threads (two on CI) all that time.
        let (readInterfaces, findings) = try await offPool("the availability scan", timeout: .seconds(300)) {
            let tooNew = try Self.tooNewNames(floor: floor)
            var findings: [String] = []
            for file in try Self.swiftFiles(under: Self.libraryFolders) {
                let source = try String(contentsOf: PackageFiles.root.appendingPathComponent(file), encoding: .utf8)
                for use in AvailabilityScanner.unguardedUses(in: source, of: tooNew) {
                    findings.append("\(file):\(use.line): `\(use.name)` needs \(tooNew[use.name]!)")
                }
            }
            return (tooNew["InlineArray"] != nil, findings)
        }
        #expect(readInterfaces, "the interfaces were not read: InlineArray (macOS 26) not found")
        #expect(findings.isEmpty, "newer than Package.swift's platforms:\n\(findings.joined(separator: "\n"))")
    }

    @Test("the scanner finds a too-new name, and lets it pass inside #available or @available")
    func scannerCanFail() {
        let tooNew = ["InlineArray": "macOS 26.0"]
        let plain = "let slots: InlineArray<8, Int> = .init(repeating: 0)\n"
        #expect(AvailabilityScanner.unguardedUses(in: plain, of: tooNew).map(\.line) == [1])
        let guarded = """
            if #available(macOS 26.0, iOS 26.0, *) {
                let slots = InlineArray<8, Int>(repeating: 0)
            }
            @available(macOS 26.0, *)
            func make() -> InlineArray<8, Int> {
                InlineArray(repeating: 0)
            }
            // InlineArray in a comment, and "InlineArray" in a string
            let text = "InlineArray"
            """
        #expect(AvailabilityScanner.unguardedUses(in: guarded, of: tooNew).isEmpty)
        #expect(
            AvailabilityScanner.unguardedUses(in: guarded + "\nlet x: InlineArray<2, Int>", of: tooNew).map(\.line) == [
                10
            ])
    }

    /// `platforms:` of Package.swift: platform name to its version, e.g. `["macOS": [15, 0]]`.
    static func declaredPlatforms() throws -> [String: [Int]] {
        let manifest = try DesignChecklistTests.read("Package.swift")
        var platforms: [String: [Int]] = [:]
        for match in manifest.matches(of: /\.(macOS|iOS|tvOS|watchOS|visionOS)\(\.v(\d+)(?:_(\d+))?\)/) {
            platforms[String(match.1)] = [Int(match.2)!, match.3.flatMap { Int($0) } ?? 0]
        }
        return platforms
    }

    /// Names every declaration of which, in the checked interfaces, needs a newer system than
    /// `floor` on some platform; the value says which.
    static func tooNewNames(floor: [String: [Int]]) throws -> [String: String] {
        var verdicts: [String: [String?]] = [:]
        for module in checkedModules + toolModules {
            guard let text = try interface(of: module) else { continue }
            let isChecked = checkedModules.contains(module)
            for declaration in InterfaceReader.declarations(in: text) {
                guard isChecked else {
                    verdicts[declaration.name, default: []].append(nil)
                    continue
                }
                let tooNew = declaration.requirements.first { platform, version in
                    floor[platform].map { version.lexicographicallyPrecedes($0) == false && version != $0 } ?? false
                }
                verdicts[declaration.name, default: []].append(
                    tooNew.map { "\($0.key) \($0.value.map(String.init).joined(separator: "."))" })
            }
        }
        return verdicts.compactMapValues { verdicts in
            verdicts.allSatisfy { $0 != nil } ? verdicts.compactMap { $0 }.max() : nil
        }
        .filter { !projectNames.contains($0.key) }
    }

    /// Names the project declares itself: a use of one of them is the project's.
    static let projectNames: Set<String> = {
        var names: Set<String> = []
        let files = (try? swiftFiles(under: ["Implementations", "ConformanceTests", "Benchmarks", "Examples"])) ?? []
        for file in files {
            guard
                let source = try? String(
                    contentsOf: PackageFiles.root.appendingPathComponent(file), encoding: .utf8)
            else { continue }
            for line in source.split(separator: "\n") {
                if let name = InterfaceReader.declaredName(in: line) { names.insert(name) }
            }
        }
        return names
    }()

    /// The folder of the toolchain's modules: the one the loaded standard library is in.
    static let toolchainModules: URL? = {
        // Read to the end: a file of /proc reports no size, and a sized read stops after a page.
        guard let data = try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd()
        else { return nil }
        let core = String(decoding: data, as: UTF8.self).split(separator: "\n")
            .compactMap { $0.split(separator: " ").last }
            .first { $0.hasSuffix("/libswiftCore.so") }
        return core.map { URL(fileURLWithPath: String($0)).deletingLastPathComponent() }
    }()

    /// The text of a toolchain module's interface.
    static func interface(of module: String) throws -> String? {
        guard let folder = toolchainModules?.appendingPathComponent("\(module).swiftmodule") else { return nil }
        guard
            let name = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .first(where: { $0.hasSuffix(".swiftinterface") && !$0.hasSuffix(".private.swiftinterface") })
        else { return nil }
        return try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// The `.swift` files under `folders`, relative to the package root, outside build folders.
    static func swiftFiles(under folders: [String]) throws -> [String] {
        var files: [String] = []
        for folder in folders {
            let base = PackageFiles.root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let path as String in walker where path.hasSuffix(".swift") {
                if path.split(separator: "/").contains(where: { $0.hasPrefix(".build") }) { continue }
                files.append("\(folder)/\(path)")
            }
        }
        return files.sorted()
    }
}

/// Reads the declarations of a `.swiftinterface` and the Apple availability each one has, its
/// own `@available` attributes and those of the declarations and extensions around it.
enum InterfaceReader {
    struct Declaration {
        let name: String
        /// Platform to the version it was introduced in, for the platforms that restrict it.
        let requirements: [String: [Int]]
    }

    static let declarationKeywords: Set<Substring> = [
        "struct", "class", "enum", "protocol", "actor", "typealias", "func", "var", "let", "case", "associatedtype",
        "macro",
    ]

    /// The name after the first declaration keyword of `line`, if any. (Words, not a regular
    /// expression: the standard library's interface is 50,000 lines.)
    static func declaredName(in line: Substring) -> String? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" })
        for (index, word) in words.enumerated() where declarationKeywords.contains(word) && index + 1 < words.count {
            let name = words[index + 1].drop { $0 == "`" }.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            return name.isEmpty ? nil : String(name)
        }
        return nil
    }

    static func declarations(in text: String) -> [Declaration] {
        var result: [Declaration] = []
        // Availability of the enclosing scopes, by brace depth.
        var scopes: [(depth: Int, requirements: [String: [Int]])] = []
        var pending: [String: [Int]] = [:]
        var depth = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#") { continue }  // #if lines
            if trimmed.contains("@available(") {
                for attribute in trimmed.matches(of: /@available\(([^)]*)\)/) {
                    for match in attribute.1.matches(of: /(macOS|iOS|tvOS|watchOS|visionOS) (\d+)(?:\.(\d+))?/) {
                        pending[String(match.1)] = [Int(match.2)!, match.3.flatMap { Int($0) } ?? 0]
                    }
                }
                trimmed = trimmed.replacing(/@available\([^)]*\)/, with: "").trimmingCharacters(in: .whitespaces)
            }
            // A line of attributes alone: they belong to the declaration on a later line.
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("@"), trimmed.wholeMatch(of: /(@[A-Za-z_]+(\([^)]*\))?\s*)+/) != nil { continue }
            var requirements = scopes.last?.requirements ?? [:]
            requirements.merge(pending) { outer, own in outer.lexicographicallyPrecedes(own) ? own : outer }
            pending = [:]
            if let name = declaredName(in: trimmed[...]) {
                result.append(Declaration(name: name, requirements: requirements))
            }
            let opens = trimmed.filter { $0 == "{" }.count
            let closes = trimmed.filter { $0 == "}" }.count
            if opens > closes { scopes.append((depth + 1, requirements)) }
            depth += opens - closes
            while let last = scopes.last, last.depth > depth { scopes.removeLast() }
        }
        return result
    }
}

/// Finds the uses of given names in Swift source that no `#available` or `@available` guards.
enum AvailabilityScanner {
    struct Use: Equatable {
        let name: String
        let line: Int
    }

    static func unguardedUses(in source: String, of names: [String: String]) -> [Use] {
        var uses: [Use] = []
        var depth = 0
        var guardedFrom: Int?  // the depth of the innermost guarded block
        var guardNext = false
        var guardByAttribute = false  // a declaration's attribute, not an `if #available`
        var inBlockComment = false
        for (index, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = String(rawLine)
            if inBlockComment {
                guard let end = line.range(of: "*/") else { continue }
                line = String(line[end.upperBound...])
                inBlockComment = false
            }
            if line.contains("\"") { line = line.replacing(/"(?:[^"\\]|\\.)*"/, with: "\"\"") }
            if let comment = line.range(of: "//") { line = String(line[..<comment.lowerBound]) }
            if let start = line.range(of: "/*") {
                inBlockComment = !line[start.upperBound...].contains("*/")
                line = String(line[..<start.lowerBound])
            }
            if line.contains("#available(") {
                guardNext = true
                guardByAttribute = false
            } else if line.contains("@available(") {
                guardNext = true
                guardByAttribute = true
            }
            if guardedFrom == nil && !guardNext {
                let words = line.split { !($0.isLetter || $0.isNumber || $0 == "_") }
                for word in words where names[String(word)] != nil {
                    uses.append(Use(name: String(word), line: index + 1))
                }
            }
            // An attribute's declaration without a body (a stored property) ends on its line.
            let attributeOnly = line.trimmingCharacters(in: .whitespaces).hasPrefix("@")
            if guardNext && guardByAttribute && !attributeOnly && !line.contains("{") {
                guardNext = false
            }
            for character in line {
                if character == "{" {
                    depth += 1
                    if guardNext && guardedFrom == nil { guardedFrom = depth }
                    guardNext = false
                } else if character == "}" {
                    if guardedFrom == depth { guardedFrom = nil }
                    depth -= 1
                }
            }
        }
        return uses
    }
}
