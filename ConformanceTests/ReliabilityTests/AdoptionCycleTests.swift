import PromiseRuntime
import Testing

/// The bounded walk every design's cycle check uses, on a plain linked list.
@Suite("Reliability: the adoption-cycle walk")
struct AdoptionCycleTests {
    /// A promise stand-in that follows at most one other.
    final class Node {
        var following: Node?
    }

    /// `count` nodes, each following the next; the last follows none.
    static func chain(_ count: Int) -> [Node] {
        let nodes = (0..<count).map { _ in Node() }
        for index in 0..<(count - 1) { nodes[index].following = nodes[index + 1] }
        return nodes
    }

    static func wouldClose(adopting start: Node, by adopter: Node) -> Bool {
        AdoptionCycle.wouldClose(adopting: start, by: ObjectIdentifier(adopter)) { $0.following }
    }

    @Test("adopting itself closes a cycle")
    func itself() {
        let node = Node()
        #expect(Self.wouldClose(adopting: node, by: node))
    }

    @Test("a chain that ends elsewhere closes none")
    func openChain() {
        let nodes = Self.chain(10)
        #expect(!Self.wouldClose(adopting: nodes[0], by: Node()))
        #expect(!Self.wouldClose(adopting: nodes[5], by: nodes[2]), "nodes[2] is behind nodes[5], not ahead")
    }

    @Test("a chain leading back to the adopter within the bound closes a cycle; one link longer does not")
    func bound() {
        let links = AdoptionCycle.maximumSteps
        let within = Self.chain(links + 1)  // `links` links from the first node to the last
        #expect(Self.wouldClose(adopting: within[0], by: within[links]))
        let beyond = Self.chain(links + 2)
        #expect(!Self.wouldClose(adopting: beyond[0], by: beyond[links + 1]))
    }
}
