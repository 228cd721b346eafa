/// Reads vCard files: any number of vCard 3.0 (RFC 2426) and 4.0
/// (RFC 6350) cards, in UTF-8, and vCard 2.1 cards as 3.0 (``VCard21``).
///
/// Each card is read on its own: a card that cannot be read is reported as
/// a ``VCardError`` with the line of the problem, and the cards after it are
/// read as usual. Lines are counted from 1, as the file has them (before
/// unfolding).
///
/// ```swift
/// for result in VCardParser.cards(in: text) {
///     switch result {
///     case .success(let card): print(card.formattedName ?? "?")
///     case .failure(let error): print(error)  // "line 12: ..."
///     }
/// }
/// ```
public enum VCardParser {
    /// The cards in `text`, in order, each read or reported.
    public static func cards(in text: String) -> [Result<VCard, VCardError>] {
        cards(in: Array(text.utf8))
    }

    /// The cards in a UTF-8 file's bytes, in order, each read or reported.
    ///
    /// Reading bytes rather than text also joins folds that split a UTF-8
    /// sequence in two.
    public static func cards(in bytes: [UInt8]) -> [Result<VCard, VCardError>] {
        var results: [Result<VCard, VCardError>] = []
        var open: VCardAssembly?
        var reportedStray = false
        for line in VCardUnfolding.logicalLines(bytes) {
            let parsed = VCardContentLine.parse(line)
            if case .success(let property) = parsed, property.group == nil,
               property.name == "BEGIN" || property.name == "END",
               property.textValue.trimmingWhitespace().uppercased() == "VCARD" {
                if property.name == "BEGIN" {
                    if let unfinished = open {
                        results.append(.failure(VCardError(line: unfinished.beginLine, message:
                            "the card that begins here has no END:VCARD before the next BEGIN:VCARD on line \(line.number)")))
                    }
                    open = VCardAssembly(beginLine: line.number)
                    reportedStray = false
                    continue
                }
                if property.name == "END" {
                    if let finished = open {
                        results.append(finished.card())
                        open = nil
                    } else {
                        results.append(.failure(VCardError(line: line.number, message: "END:VCARD without a BEGIN:VCARD")))
                    }
                    reportedStray = false
                    continue
                }
            }
            if open != nil {
                open?.lines.append(parsed)
            } else if !reportedStray {
                results.append(.failure(VCardError(line: line.number,
                    message: "text outside a card: cards are BEGIN:VCARD ... END:VCARD")))
                reportedStray = true
            }
        }
        if let unfinished = open {
            results.append(.failure(VCardError(line: unfinished.beginLine,
                message: "the card that begins here has no END:VCARD before the end of the file")))
        }
        return results
    }
}
