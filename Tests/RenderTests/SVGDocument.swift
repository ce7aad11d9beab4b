import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An SVG document read back with an XML parser, so the tests check what a viewer would see,
/// not the strings the renderer happens to write.
struct SVGDocument {
    struct Element {
        var name: String
        var attributes: [String: String]
        /// The `data-device` of the enclosing device group.
        var device: String?
        var text = ""

        func number(_ key: String) -> Double? { attributes[key].flatMap(Double.init) }
        var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }
    }

    var elements: [Element] = []
    var viewBox: (x: Double, y: Double, width: Double, height: Double) = (0, 0, 0, 0)

    init(_ text: String) throws {
        let delegate = Collector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = delegate
        guard parser.parse() else {
            throw ParseError(message: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        elements = delegate.elements
        guard let svg = elements.first, svg.name == "svg",
            let box = svg.attributes["viewBox"]?.split(separator: " ").compactMap({ Double($0) }), box.count == 4
        else { throw ParseError(message: "no <svg viewBox>") }
        viewBox = (box[0], box[1], box[2], box[3])
    }

    struct ParseError: Error { var message: String }

    func all(_ name: String, class c: String? = nil) -> [Element] {
        elements.filter { $0.name == name && (c == nil || $0.classes.contains(c!)) }
    }

    /// The vertices of a path made of `M x y L x y x y …`.
    static func vertices(_ d: String) -> [(Double, Double)] {
        let numbers = d.split(whereSeparator: { $0 == " " || $0 == "M" || $0 == "L" }).compactMap { Double($0) }
        return stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) }
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        var deviceStack: [String?] = []
        var open: [Int] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let device = attributes["data-device"] ?? deviceStack.last ?? nil
            deviceStack.append(device)
            open.append(elements.count)
            elements.append(Element(name: name, attributes: attributes, device: device))
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            deviceStack.removeLast()
            open.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let i = open.last { elements[i].text += string }
        }
    }
}
