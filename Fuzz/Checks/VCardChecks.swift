import LDAPBook

/// The properties of the vCard parser and writer checked on one input.
///
/// - Reading the input never crashes: it gives a card or an error (with a
///   line inside the input) for each card, and
///   reading the values of the cards it accepts (names, emails, inline
///   photos, structured values) and mapping them to new people never
///   crashes either.
/// - The cards the input gives, written by ``VCardWriter``, are in lines of
///   at most 75 octets ending in CRLF, read back as equal cards (``VCard``
///   compares the parsed model: version, and each property's group, name,
///   parameters and value) with the same hashes, and are written the same
///   again.
enum VCardChecks {
    /// The built-in fields only, as with no directory schema.
    private static let registry = FieldRegistry(schema: nil)

    static func check(_ input: [UInt8]) throws(PropertyViolation) {
        let results = VCardParser.cards(in: input)
        let lineCount = input.count + 1
        var cards: [VCard] = []
        for result in results {
            switch result {
            case .success(let card): cards.append(card)
            case .failure(let error):
                try PropertyViolation.require(
                    error.line >= 1 && error.line <= lineCount,
                    "reading \(shown(input)) gives \(error), whose line is outside the input"
                )
            }
        }
        for card in cards {
            readValues(of: card)
        }
        _ = VCardParser.newPeople(in: String(decoding: input, as: UTF8.self), registry: registry)
        try checkRoundTrip(cards, from: input)
    }

    /// Reads every value of `card` in the ways the address book reads them.
    private static func readValues(of card: VCard) {
        _ = (card.formattedName, card.name, card.emails, card.telephones, card.uid)
        for property in card.properties {
            _ = (property.textValue, property.textValues, property.components, property.binaryValue)
            _ = (property.types, property.preference, property.valueType)
        }
    }

    /// `cards` written and read back are equal, and written the same again.
    private static func checkRoundTrip(_ cards: [VCard], from input: [UInt8]) throws(PropertyViolation) {
        let written = VCardWriter.write(cards)
        let lines = Array(written.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
        for line in lines.dropLast() {
            try PropertyViolation.require(
                line.last == 0x0D && line.count - 1 <= VCardWriter.maximumLineLength
                    && !line.dropLast().contains(0x0D),
                "the cards of \(shown(input)) are written with the line \(shown(line)), "
                    + "which is longer than \(VCardWriter.maximumLineLength) octets or not ended by CRLF"
            )
        }
        let reread = VCardParser.cards(in: written)
        let rereadCards = reread.compactMap { try? $0.get() }
        guard rereadCards.count == reread.count else {
            let errors = reread.compactMap { result -> VCardError? in
                if case .failure(let error) = result { error } else { nil }
            }
            throw PropertyViolation(
                "the cards of \(shown(input)) are written as \(shown(written)), which reads with errors: \(errors)"
            )
        }
        try PropertyViolation.require(
            rereadCards == cards && rereadCards.map(\.hashValue) == cards.map(\.hashValue),
            "the cards of \(shown(input)) are written as \(shown(written)), which reads back as different cards "
                + "(or equal ones with other hashes)"
        )
        try PropertyViolation.require(
            VCardWriter.write(rereadCards) == written,
            "the cards of \(shown(input)) are written as \(shown(written)), and after reading back differently"
        )
    }
}
