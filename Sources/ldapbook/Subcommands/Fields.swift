import CommandLineKit
import Foundation
import LDAPBook
import SlapdKit
import TerminalUI

/// `ldapbook fields`: the field names this directory understands.
enum Fields {
    static let spec = CommandSpec(
        "fields",
        abstract: "List the field names this directory understands.",
        discussion: "Built-in names first, then the attributes of the directory's schema. Any other name is a custom field (when ldapbook's schema is installed).",
        options: [OptionSpec(["--format"], .value("table|json|names"),
                             help: "output format (default table); names: one name per line, as shell completion reads them")])

    /// The built-in field names, for shell completion when no directory answers.
    static let builtInNames = BuiltInField.all.map(\.name)

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let format = try parsed.choice("--format", from: ["table", "json", "names"]) ?? "table"
        if format == "names", !Directory.isConfigured(try ConnectionOptions.configuration(parsed)),
           !LocalDirectory().status().isRunning {
            // Completion never starts the local directory: the built-in names, then.
            StandardStream.output.write(builtInNames.joined(separator: "\n") + "\n")
            return .success
        }
        let registry = try await Directory.addressBook(parsed).fieldRegistry()
        let fields = registry.knownFields
        let text: String
        if format == "names" {
            text = fields.map { TerminalText.sanitized($0.name) }.joined(separator: "\n") + "\n"
        } else if format == "json" {
            var json = JSONWriter()
            json.beginObject()
            json.key("customFields")
            json.bool(registry.hasLDAPBookSchema)
            json.key("fields")
            json.beginArray()
            for field in fields {
                json.beginObject()
                json.key("name")
                json.string(field.name)
                json.key("attribute")
                json.string(field.attribute)
                json.key("kind")
                json.string(field.kind.rawValue)
                json.key("singleValued")
                json.bool(field.isSingleValued)
                json.key("origin")
                json.string(field.origin.rawValue)
                json.endObject()
            }
            json.endArray()
            json.endObject()
            text = String(decoding: json.bytes, as: UTF8.self) + "\n"
        } else {
            let width = fields.map(\.name.count).max() ?? 0
            let attributeWidth = fields.map(\.attribute.count).max() ?? 0
            var lines = fields.map { field in
                let name = field.name.padding(toLength: width, withPad: " ", startingAt: 0)
                let attribute = field.attribute.padding(toLength: attributeWidth, withPad: " ", startingAt: 0)
                return "\(name)  \(attribute)  \(field.kind.rawValue)\(field.isSingleValued ? ", single" : "")  \(field.origin.rawValue)"
            }
            lines.append(registry.hasLDAPBookSchema
                ? "any other name: a custom field, kept in ldapbookCustomField"
                : "custom fields need ldapbook's schema (see ldapbook schema install)")
            text = lines.map { TerminalText.sanitized($0) }.joined(separator: "\n") + "\n"
        }
        StandardStream.output.write(text)
        return .success
    }
}
