/// A section of a hand-written Markdown file that `compare` regenerates: the text from a begin
/// marker to the end marker, markers included. The conformance matrix and the design review's
/// numbers are two.
public struct GeneratedSection: Sendable {
    /// The comment that opens the section, naming the command that writes it.
    public let beginMarker: String
    /// The comment that closes every generated section.
    public static let endMarker = "<!-- END generated -->"

    public init(beginMarker: String) { self.beginMarker = beginMarker }

    /// Where the section is in `text`, markers included, or `nil`.
    public func range(in text: String) -> Range<String.Index>? {
        guard let begin = text.range(of: beginMarker),
            let end = text.range(of: Self.endMarker, range: begin.upperBound..<text.endIndex)
        else { return nil }
        return begin.lowerBound..<end.upperBound
    }

    /// The section of `text`, markers included, or `nil`.
    public func current(in text: String) -> String? { range(in: text).map { String(text[$0]) } }

    /// `text` with its section replaced by `section`, or `nil` if `text` has none.
    public func replacing(in text: String, with section: String) -> String? {
        range(in: text).map { text.replacingCharacters(in: $0, with: section) }
    }
}
