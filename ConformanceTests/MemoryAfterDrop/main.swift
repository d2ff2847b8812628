import AYPromises
import BatchedPromises
import Dispatch
import FBLPromises
import Foundation
import QNTasks
import QXPromises

#if canImport(Glibc)
    import Glibc
#endif

// The resident size of a process before a large piece of promise work, at its peak, right after
// the work has been dropped, once the design has returned what it returns (`settled`), and after
// a `malloc_trim(0)` of the probe's own: `MemoryAfterDrop <design> <scenario> <count>`, one line of
// JSON on standard output. ReliabilityTests runs it in a process of its own per design and scenario, so
// that nothing else the tests do moves the figure.
//
// Scenarios: `chain` (a chain of `count` links on a pending root, settled, its end observed),
// `pending-chain` (the same chain never settled, dropped pending), `all` (`all` over `count`
// pending inputs, each fulfilled). Every callback runs on one serial queue. With
// `MEMORY_AFTER_DROP_NO_TRIM=1`, Batched's heap trimming (`HeapTrimming`) is off.

/// The resident size now, in bytes (`/proc/self/statm`'s second field, in pages).
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return -1 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

let queue = DispatchQueue(label: "memory-after-drop")

/// glibc's `malloc_trim(0)`, which `<malloc.h>` declares and the `Glibc` module does not: found at
/// run time, and skipped where there is none.
func trimHeap() {
    #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    #endif
}

/// Waits for one call of the returned closure, at most 120 s.
func waitForOne(_ body: (@escaping @Sendable () -> Void) -> Void) {
    let done = DispatchSemaphore(value: 0)
    body { done.signal() }
    guard done.wait(timeout: .now() + 120) == .success else {
        FileHandle.standardError.write(Data("MemoryAfterDrop: the work did not finish in 120 s\n".utf8))
        exit(2)
    }
}

/// Runs one scenario of one design at `count`; everything it made is dropped when it returns.
/// `peak` is called at the work's largest, before the drop.
func run(design: String, scenario: String, count: Int, peak: () -> Void) -> Bool {
    switch (design, scenario) {
    case ("Batched", "chain"), ("Batched", "pending-chain"):
        let (root, resolver) = Promise<Int, Never>.makePending()
        var last = root
        for _ in 0..<count { last = last.map(on: queue) { $0 + 1 } }
        peak()
        guard scenario == "chain" else { return true }
        waitForOne { done in
            last.whenComplete(on: queue) { _ in done() }
            resolver.fulfill(0)
        }
    case ("Batched", "all"):
        let inputs = (0..<count).map { _ in Promise<Int, Never>.makePending() }
        waitForOne { done in
            Promise.all(inputs.map(\.promise)).whenComplete(on: queue) { _ in done() }
            peak()
            queue.async { for (index, input) in inputs.enumerated() { input.resolver.fulfill(index) } }
        }
    case ("FBL", "chain"), ("FBL", "pending-chain"):
        let root = FBLPromise<Int>.pending()
        var last = root
        for _ in 0..<count { last = last.then(on: queue) { $0 + 1 } }
        peak()
        guard scenario == "chain" else { return true }
        waitForOne { done in
            last.then(on: queue) { _ in done() }
            root.fulfill(0)
        }
    case ("FBL", "all"):
        let inputs = (0..<count).map { _ in FBLPromise<Int>.pending() }
        waitForOne { done in
            FBLPromises.all(on: queue, inputs).then(on: queue) { _ in done() }
            peak()
            queue.async { for (index, input) in inputs.enumerated() { input.fulfill(index) } }
        }
    case ("AY", "chain"), ("AY", "pending-chain"):
        let root = AYPromise.pending()
        var last = root.promise
        for _ in 0..<count { last = last.thenOn(queue) { (value: PromiseValue) in ((value as? Int) ?? 0) + 1 } }
        peak()
        guard scenario == "chain" else { return true }
        waitForOne { done in
            last.thenOn(queue) { (_: PromiseValue) in done() }
            root.resolve(0)
        }
    case ("AY", "all"):
        let inputs = (0..<count).map { _ in AYPromise.pending() }
        waitForOne { done in
            AYPromise.all(inputs.map(\.promise)).thenOn(queue) { (_: PromiseValue) in done() }
            peak()
            queue.async { for (index, input) in inputs.enumerated() { input.resolve(index) } }
        }
    case ("QX", "chain"), ("QX", "pending-chain"):
        let root = QXPromise.pending(on: queue)
        var last = root.promise
        for _ in 0..<count { last = last.then(on: queue) { ((($0 as? Int) ?? 0) + 1) as PromiseValue } }
        peak()
        guard scenario == "chain" else { return true }
        waitForOne { done in
            last.then(on: queue) { _ in
                done()
                return nil
            }
            root.resolver.fulfill(0)
        }
    case ("QX", "all"):
        let inputs = (0..<count).map { _ in QXPromise.pending(on: queue) }
        waitForOne { done in
            QXPromise.all(on: queue, inputs.map(\.promise)).then(on: queue) { _ in
                done()
                return nil
            }
            peak()
            queue.async { for (index, input) in inputs.enumerated() { input.resolver.fulfill(index) } }
        }
    case ("QN", "chain"), ("QN", "pending-chain"):
        let root = QNAsyncManualTask<Int>()
        var last: QNAsyncTask<Int> = root
        for _ in 0..<count { last = last.map(on: queue) { $0 + 1 } }
        guard scenario == "chain" else {
            peak()
            return true
        }
        waitForOne { done in
            last.start(on: queue) { _ in done() }
            peak()
            root.succeed(0)
        }
    default:
        return false
    }
    return true
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 3, let count = Int(arguments.last!), count > 0 else {
    FileHandle.standardError.write(
        Data("usage: MemoryAfterDrop <FBL|AY|QX|QN|Batched> <chain|pending-chain|all> <count>\n".utf8))
    exit(64)
}
let design = arguments.first!
// For a comparison run: the same work with Batched's heap trimming turned off.
if ProcessInfo.processInfo.environment["MEMORY_AFTER_DROP_NO_TRIM"] == "1" { HeapTrimming.isEnabled = false }
let scenario = arguments.dropFirst().first!

// A small run first, so that what the process keeps once (metadata, the queue's thread) is in
// the figure before.
guard run(design: design, scenario: scenario, count: 1_000, peak: {}) else {
    FileHandle.standardError.write(Data("MemoryAfterDrop: no scenario '\(scenario)' for '\(design)'\n".utf8))
    exit(64)
}
// Let the queue finish what it frees after the last callback.
queue.sync {}
let before = residentBytes()
let trimsBefore = HeapTrimming.trimCount
var atPeak = 0
_ = run(design: design, scenario: scenario, count: count) { atPeak = residentBytes() }
queue.sync {}
let after = residentBytes()
// Batched trims once freeing has gone quiet (a check every 100 ms): wait until it has trimmed and
// no trim is pending, 5 s at most. The ports trim nothing: their figure is read at once.
let deadline = DispatchTime.now() + .seconds(5)
while design == "Batched", HeapTrimming.trimCount == trimsBefore || HeapTrimming.isTrimPending,
    DispatchTime.now() < deadline
{
    usleep(10_000)
}
let settled = residentBytes()
trimHeap()
let afterTrim = residentBytes()
print(
    #"{"design":"\#(design)","scenario":"\#(scenario)","count":\#(count),"before":\#(before),"#
        + #""peak":\#(atPeak),"after":\#(after),"settled":\#(settled),"afterTrim":\#(afterTrim)}"#)
