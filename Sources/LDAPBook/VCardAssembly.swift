/// The content lines of one card between `BEGIN:VCARD` and `END:VCARD`,
/// and the checks that make them a ``VCard``.
struct VCardAssembly {
    /// The line of the card's `BEGIN:VCARD`.
    let beginLine: Int
    /// Each content line, read or reported.
    var lines: [Result<VCardProperty, VCardError>] = []

    init(beginLine: Int) {
        self.beginLine = beginLine
    }

    /// The card, or the first reason it cannot be read.
    ///
    /// A vCard 2.1 card is read as the 3.0 card it can be written as (``VCard21``).
    func card() -> Result<VCard, VCardError> {
        var properties = lines.compactMap { try? $0.get() }
        guard let versionProperty = properties.first(where: { $0.name == "VERSION" }) else {
            if let error = firstLineError { return .failure(error) }
            return .failure(VCardError(line: beginLine, message: "the card that begins here has no VERSION"))
        }
        let versionText = versionProperty.textValue.trimmingWhitespace()
        let version: VCardVersion
        if versionText == "2.1" {
            if let error = firstLineError { return .failure(error) }
            do throws(VCardError) {
                properties = try properties.map(VCard21.upgraded)
            } catch {
                return .failure(error)
            }
            version = .v3
        } else if let known = VCardVersion(rawValue: versionText) {
            version = known
        } else {
            return .failure(VCardError(line: versionProperty.line ?? beginLine, message:
                "VERSION \(versionText.prefix(20)) is not supported: ldapbook reads vCard 2.1, 3.0 and 4.0"))
        }
        if let error = firstLineError { return .failure(error) }
        for property in properties {
            if let problem = problem(with: property) {
                return .failure(VCardError(line: property.line ?? beginLine, message: problem))
            }
        }
        return .success(VCard(version: version, properties: properties.filter { $0.name != "VERSION" },
                              line: beginLine))
    }

    private var firstLineError: VCardError? {
        for line in lines {
            if case .failure(let error) = line { return error }
        }
        return nil
    }

    /// What keeps `property` from being part of a vCard 3.0 or 4.0 card,
    /// naming the property.
    private func problem(with property: VCardProperty) -> String? {
        if property.name == "BEGIN" || property.name == "END" {
            return "\(property.name):\(property.value.prefix(20)) inside a card; cards may follow one another, not nest"
        }
        let encodings = property.parameterValues("ENCODING").map { $0.lowercased() }
        if encodings.contains("quoted-printable") || property.hasType("quoted-printable") {
            return "\(property.name): quoted-printable is vCard 2.1's encoding; vCard 3.0 and 4.0 values are UTF-8 text"
        }
        if let encoding = encodings.first(where: { !VCardProperty.base64Encodings.contains($0) && $0 != "8bit" }) {
            return "\(property.name): ENCODING=\(encoding.prefix(20)) is not an encoding of vCard 3.0 or 4.0 (they have b, for base64)"
        }
        do {
            _ = try property.inlineBytes()
        } catch {
            return "\(property.name): the inline data is not valid base64: \(error.reason)"
        }
        return nil
    }
}
